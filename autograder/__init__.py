"""Instructor-side tools: generate exercises, check notebooks, grade a class, report.

Importing the package changes nothing global. Run as ``python -m autograder.<module>``, the package is
the program: it prepares the process (:func:`autograder.process.prepare`) before that module's imports,
as the ``autograder`` command does. Python sets ``sys.argv[0]`` to ``"-m"`` while it imports the
package of the module it was asked to run, and only then.
"""

import sys

if sys.argv[:1] == ["-m"]:  # `python -m autograder.<module>`: see above
    from .process import prepare

    prepare()
