"""The code that runs inside the sandbox: clean runs of a notebook's tests, and the zygotes that fork them and the
grading kernels.

The grader never imports this package to grade: :mod:`autograder.forkserver` starts ``python -I -c <BOOT>``, whose
few lines load it by its file location (:data:`autograder.forkserver.BOOT`) from a read-only bind of this folder,
the one part of the grader the sandbox sees. So it needs nothing but the standard library (and, for a kernel,
ipykernel), and it imports nothing of the grader (tests/sandbox/test_structure.py checks). Its modules, in the
order they depend:

- :mod:`.watch`: what the tests rely on, imported first and recorded (the snapshot);
- :mod:`.checks`: before and after each test cell, everything of the snapshot put back, and what was said;
- :mod:`.cells`: the notebook's cells run, each test between two checks;
- :mod:`.run`: one clean run, its payload read on stdin and its results written on a private channel;
- :mod:`.channel`, :mod:`.wipe`, :mod:`.kernels`: a zygote's requests and replies, its sandbox put back after each
  request, the grading kernels it forks;
- :mod:`.zygote`: a process that imports once and forks one run or one kernel per request;
- :mod:`.main`: the entry point (``zygote ...`` or one fresh run).

Everything the checks use is bound before notebook code runs: each function that runs once notebook code has run
takes its helpers, and the modules' functions it calls, as default arguments, evaluated when its module is
imported. Replacing a builtin, a module's attribute or one of these modules' names does not change the checks.
"""
