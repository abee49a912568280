"""Instructor-side tools: generate exercises, check notebooks, grade a class, report."""
