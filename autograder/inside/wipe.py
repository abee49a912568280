"""Putting a sandbox's writable places back as they were after a run or a kernel: /tmp, HOME, /dev/shm, and
System V IPC; and the check that they are (:func:`is_clean`)."""

import os


def remove(path):
    """Delete a file or a folder tree, whatever permissions the run gave it."""
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
            for name in os.listdir(path):
                remove(os.path.join(path, name))
            os.rmdir(path)
        else:
            os.unlink(path)
    except (OSError, RecursionError):
        pass


def empty(folder, keep=None):
    """Remove what ``folder`` holds but ``keep``; a folder not ours to list is left alone."""
    try:
        for name in os.listdir(folder):
            if os.path.join(folder, name) != keep:
                remove(os.path.join(folder, name))
    except OSError:
        pass


def identity(path):
    try:
        info = os.lstat(path)
        return (info.st_dev, info.st_ino)
    except OSError:
        return None


def tree(path, found, device):
    """Every entry under ``path`` on /tmp's own file system (``device``), not inside the binds mounted there."""
    ident = identity(path)
    found[path] = ident
    if ident is not None and ident[0] == device and os.path.isdir(path) and not os.path.islink(path):
        for name in os.listdir(path):
            tree(os.path.join(path, name), found, device)
    return found


def sysv_ipc():
    """Remove the System V shared memory, semaphores and message queues of this IPC namespace."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
    except (OSError, AttributeError):
        return
    for kind, call in (("shm", "shmctl"), ("sem", "semctl"), ("msg", "msgctl")):
        try:
            with open(f"/proc/sysvipc/{kind}") as table:
                ids = [int(row.split()[1]) for row in table.readlines()[1:] if row.split()]
        except (OSError, ValueError, IndexError):
            continue
        for ipc_id in ids:
            if kind == "sem":
                libc.semctl(ipc_id, 0, 0)  # IPC_RMID
            else:
                getattr(libc, call)(ipc_id, 0, None)


def wipe(z):
    """Put the sandbox's writable places back as they were: /tmp, its HOME (empty) and /dev/shm.

    Returns whether that worked (:func:`is_clean`); if not, the zygote stops after answering (the
    grader starts another in a new sandbox).
    """
    if not z["sandboxed"]:
        return True
    tmp, home, keep, kept = z["tmp"], z["home"], z["keep"], z["kept"]
    for name in os.listdir(tmp):
        path = os.path.join(tmp, name)
        if path == home:
            if os.path.islink(path) or not os.path.isdir(path):
                remove(path)
            else:
                try:
                    os.chmod(path, 0o755)
                except OSError:
                    pass
                empty(path)
        elif path not in kept:
            remove(path)
    for name in keep:
        if os.path.join(tmp, name) != home:
            try:
                for added in sorted(set(tree(os.path.join(tmp, name), {}, z["tmp_device"])) - set(kept), key=len):
                    remove(added)
            except (OSError, RecursionError):
                pass  # the check below fails
    sysv_ipc()
    if "home" in keep and not os.path.isdir(home):
        try:
            os.mkdir(home, 0o755)
        except OSError:
            pass
    empty("/dev/shm")
    return is_clean(z)


def is_clean(z):
    """Whether /tmp holds just what it held before any run, the very same entries, HOME empty, /dev/shm empty."""
    tmp, home, keep, kept = z["tmp"], z["home"], z["keep"], z["kept"]
    try:
        return sorted(os.listdir(tmp)) == sorted(keep) \
            and all(identity(path) == ident for path, ident in kept.items()) \
            and all(set(tree(os.path.join(tmp, name), {}, z["tmp_device"])) <= set(kept)
                    for name in keep if os.path.join(tmp, name) != home) \
            and ("home" not in keep or (not os.path.islink(home) and not os.listdir(home))) \
            and not (os.path.isdir("/dev/shm") and os.listdir("/dev/shm"))
    except (OSError, RecursionError):
        return False
