"""Runs: the library's verbs over run directories and trained models, below the command line.

``train`` (``TrainRequest``) checks, claims, starts or resumes a run and fits it; ``report`` says what
to do with a finished one; ``evaluate`` (``EvaluateRequest``), ``generate`` (``GenerateRequest``),
``translate_lines``, ``attention`` (``AttentionRequest``) and ``average`` use a trained model. Each
returns values or text; none draws a progress bar unless its caller passes a ``progress`` factory.
"""

from __future__ import annotations

from ..tasks import EvaluateRequest, GenerateRequest
from ..training.trainer import Interrupted
from .launch import TrainRequest, report, train
from .verbs import AVERAGE_LAST, AttentionRequest, attention, average, evaluate, generate, translate_lines

__all__ = ["AVERAGE_LAST", "AttentionRequest", "EvaluateRequest", "GenerateRequest", "Interrupted", "TrainRequest",
           "attention", "average", "evaluate", "generate", "report", "train", "translate_lines"]
