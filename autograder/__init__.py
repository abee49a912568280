"""Instructor-side tools: generate exercises, check notebooks, grade a class, report."""

from toolfaults.startup import skip_slow_format_checkers

skip_slow_format_checkers()  # before anything imports jsonschema: 1 to 2 s less per process (see there)
