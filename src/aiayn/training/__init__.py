"""Training pieces of paper §5: label-smoothed loss, learning-rate schedule, optimiser."""

from .loss import LossSums, label_smoothed_cross_entropy
from .schedule import build_optimizer, noam_lr

__all__ = ["LossSums", "build_optimizer", "label_smoothed_cross_entropy", "noam_lr"]
