"""The first module of a Dask worker process: it prepares the process (:func:`autograder.process.prepare`).

A LocalCluster's workers are forks of a process that multiprocessing's forkserver starts and that only
*imports* modules (:data:`autograder.cluster.WORKER_PRELOAD`) before the grader's: no function can be
called there first, so importing this module is that call. It must come before ``autograder.worker`` in
that list (nbgrader imports ``jsonschema``, whose slow part the preparation skips). On other machines,
``dask worker --preload autograder.boot`` does the same for a worker started by hand.

This is the one module whose import changes the process, and no module of the package imports it
(tests/sandbox/test_import_effects.py checks both).
"""

from .process import prepare

prepare()
