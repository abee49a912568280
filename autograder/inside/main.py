"""The entry point: ``zygote <max channel> sandboxed|plain [kernel <modules as JSON>]`` serves requests
(:func:`autograder.inside.zygote.serve`); no argument, one fresh clean run of the payload on stdin
(:func:`autograder.inside.run.clean_run`)."""

import sys


def main(argv=None):
    """Serve as a zygote or make one clean run, as ``argv`` (``sys.argv``) says; never returns."""
    argv = sys.argv if argv is None else argv
    if len(argv) > 1 and argv[1] == "zygote":
        from .zygote import serve

        serve(argv)
    else:
        from .run import clean_run

        clean_run()
