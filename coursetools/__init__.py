"""The course's own development and proof tooling, run from its checkout; not part of the wheel.

- :mod:`coursetools.fairness`: the fairness proofs, over the catalogue of wrong and right answers
  (``coursetools/catalogue/``, data);
- :mod:`coursetools.tricks`: the catalogue of tricks that change how the tests run, proven caught;
- :mod:`coursetools.sample_class`: builds the sample class's submissions (``--check``: are they stale?);
- :mod:`coursetools.bench`, :mod:`coursetools.benchcompare`, :mod:`coursetools.measure`: `make bench`.

They use the grader (``autograder``); the grader never imports them. An instructor's install of the
grader (``pip install .``, a wheel) has none of this: it grades classes, it does not prove itself.

Run as ``python -m coursetools.<module>``, the package prepares the process as ``python -m autograder.<module>``
does (:func:`autograder.process.prepare`, before that module's imports); imported, it changes nothing global.
"""

import sys

if sys.argv[:1] == ["-m"]:  # `python -m coursetools.<module>`: Python sets argv[0] so while it imports this package
    from autograder.process import prepare

    prepare()
