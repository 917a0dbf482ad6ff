"""Experiments as data: a named list of runs (a YAML file here, or your own) trained, scored and tabulated by
one command, ``aiayn experiment NAME``. See ``spec`` (the file), ``runner`` (train, resume, score) and
``report`` (table and plots from the records alone)."""

from .spec import Experiment, RunSpec, load, names

__all__ = ["Experiment", "RunSpec", "load", "names"]
