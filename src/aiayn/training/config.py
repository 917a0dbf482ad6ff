"""Training configuration (paper §5) and config files.

A config file is YAML (``.yaml``/``.yml``) or TOML (``.toml``) with up to three top-level keys::

    preset: tiny            # tiny | base | big: the model and training presets below
    model: {dropout: 0.2}   # TransformerConfig fields
    train: {warmup: 8000}   # TrainConfig fields

Anything else, at any level, is an error that names the key.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..checks import Allowed, check_fields
from ..errors import ConfigError
from ..model.config import PRESETS
from ..precision import PRECISIONS


class YamlLoader(yaml.SafeLoader):
    """YAML's safe loader, reading 1e-4 as the number it means (YAML 1.1 wants 1.0e-4 and gives the string)."""


YamlLoader.add_implicit_resolver("tag:yaml.org,2002:float", re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)[eE][-+]?\d+$"),
                                 list("-+0123456789."))


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=YamlLoader)


RANGES = {  # every numeric and boolean field of TrainConfig (and the Adam betas), checked in __post_init__
    **{name: Allowed(int, 1) for name in ("max_tokens", "update_freq", "max_steps", "warmup", "log_every",
                                          "valid_every", "save_every", "keep_last")},
    "max_sentences": Allowed(int, 1, optional=True),
    "max_time": Allowed(float, 0, lo_open=True, optional=True), "lr_scale": Allowed(float, 0, lo_open=True),
    "beta": Allowed(float, 0, 1, hi_open=True), "adam_eps": Allowed(float, 0, lo_open=True),
    "label_smoothing": Allowed(float, 0, 1, hi_open=True), "clip_norm": Allowed(float, 0),
    "seed": Allowed(int, 0, 2**32 - 1),
    "prefetch": Allowed(int, 0, 64),
}
# What --resume may change: limits and intervals, nothing that alters the updates themselves.
# (A task's own train settings add theirs: ``RESUMABLE`` of its settings class, ``Task.train_settings``.)
RESUMABLE = ("max_steps", "max_time", "deterministic", "log_every", "valid_every", "save_every", "keep_last",
             "prefetch")
# Fields TrainConfig had before tasks owned them (translation's); a saved config still holds them.
FORMER_FIELDS = ("vocab_size", "valid_bleu_sentences")


@dataclass
class TrainConfig:
    """How to train; defaults are the paper's base recipe (§5), fields named as the paper names them.

    ``max_tokens`` counts padded tokens per side (source and target each) in one batch; the
    paper's batches held ~25,000 of each, over 8 GPUs (``--max-tokens 3125`` per GPU with
    ``torchrun --nproc_per_node 8``, or ``--update-freq 8`` on one).
    """

    max_tokens: int = 25000
    max_sentences: int | None = None
    update_freq: int = 1  # batches accumulated per update
    max_steps: int = 100_000  # updates (base: 100k; big: 300k)
    max_time: float | None = None  # seconds of training in all, across resumes
    warmup: int = 4000
    lr_scale: float = 1.0  # multiplies the whole §5.3 curve
    adam_betas: tuple[float, float] = (0.9, 0.98)
    adam_eps: float = 1e-9
    label_smoothing: float = 0.1  # ε_ls
    clip_norm: float = 0.0  # 0: no clipping (the paper clips nothing)
    # fp32 | bf16 (a bf16 working copy, fp32 master weights: aiayn.precision) | auto (bf16 where the
    # hardware multiplies it natively); the run records what auto chose
    precision: str = "fp32"
    # GPU kernels that add with atomics (embedding and attention backward) differ run to run; this
    # trades some speed for bit-identical runs and resumes (CPU training is deterministic anyway)
    deterministic: bool = False
    seed: int = 1
    log_every: int = 100
    valid_every: int = 1000  # steps between validations (loss, perplexity, BLEU)
    save_every: int = 1000  # steps between checkpoints (the paper: every 10 minutes)
    keep_last: int = 20  # checkpoints kept for averaging (base averages 5, big 20)
    prefetch: int = 2  # batches collated ahead in a background thread (0: each collated when its step needs it)
    # the task's own training settings (a dataclass, e.g. translation's vocabulary size), recorded in the
    # same train section of config.json as the fields above; None for a task with none
    task_settings: Any = None

    def __post_init__(self) -> None:
        check_fields(self, RANGES, prefix="train.")
        if self.precision not in PRECISIONS:
            raise ConfigError(f"train.precision must be one of {', '.join(PRECISIONS)}, not {self.precision!r}",
                              field="train.precision")
        if not (isinstance(self.adam_betas, (list, tuple)) and len(self.adam_betas) == 2
                and all(RANGES["beta"].fits(b) for b in self.adam_betas)):
            raise ConfigError(f"train.adam_betas must be two numbers >= 0 and < 1, not {self.adam_betas!r}",
                              field="train.adam_betas")
        self.adam_betas = tuple(self.adam_betas)

    @classmethod
    def from_dict(cls, values: dict[str, Any], own: type | None = None) -> TrainConfig:
        """A config from a train section: these fields, and those of ``own`` (the task's settings
        dataclass, if any) into ``task_settings``. Fields this config had in earlier versions
        (``FORMER_FIELDS``, in every run's config.json) go to ``own`` when it has them and are dropped
        otherwise; any other key is an error naming the known ones."""
        mine = {f.name for f in dataclasses.fields(cls)} - {"task_settings"}
        theirs = {f.name for f in dataclasses.fields(own)} if own else set()
        values = {k: v for k, v in values.items() if k not in FORMER_FIELDS or k in theirs}
        if "bf16" in values:  # the field before train.precision (bfloat16 autocast), in older config.json files
            bf16 = values.pop("bf16")
            if not isinstance(bf16, bool):
                raise ConfigError(f"train.bf16 must be true or false, not {bf16!r} (or use train.precision)",
                                  field="train.bf16")
            if bf16:
                values.setdefault("precision", "bf16")
        unknown = sorted(set(values) - mine - theirs)
        if unknown:
            raise ConfigError(f"unknown train config key(s): {', '.join(unknown)}; known keys: "
                              f"{', '.join(sorted(mine | theirs))}", field=f"train.{unknown[0]}")
        settings = own(**{k: v for k, v in values.items() if k in theirs}) if own else None
        return cls(**{k: v for k, v in values.items() if k in mine}, task_settings=settings)

    def to_dict(self) -> dict[str, Any]:
        """The train section: these fields and the task's own, side by side (as earlier versions wrote it)."""
        mine = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "task_settings"}
        return {**mine, **(dataclasses.asdict(self.task_settings) if self.task_settings else {})}


@dataclass
class Settings:
    """What the user asked for, before any defaults: a preset, model and train fields from a config
    file updated by ``--set``-style overrides (``model.<field>`` / ``train.<field>`` keys)."""

    preset: str | None
    model: dict[str, Any]
    train: dict[str, Any]
    path: Path | None = None
    overrides: dict[str, Any] = dataclasses.field(default_factory=dict)

    def blame(self, error: ValueError) -> ConfigError:
        """``error`` as a ConfigError saying where the bad value came from: a --set, or the file and line."""
        field = getattr(error, "field", None) or ""
        section, name = field.split(".", 1) if field.startswith("train.") else ("model", field)
        if f"{section}.{name}" in self.overrides:
            return ConfigError(f"--set {section}.{name}: {error}", field)
        if self.path and name in getattr(self, section):
            line = line_of(self.path, name)
            return ConfigError(f"{self.path}{f', line {line}' if line else ''}: {error}", field)
        return ConfigError(str(error), field)


def read_settings(preset: str | None, path: str | Path | None, overrides: dict[str, Any] | None = None,
                  presets=PRESETS) -> Settings:
    """The config file (if any) updated by ``overrides``; nothing is checked against the dataclasses yet
    but the preset's name (one of ``presets``)."""
    data = read_config_file(path) if path else {}
    settings = Settings(preset or data.get("preset"), dict(data.get("model", {})), dict(data.get("train", {})),
                        Path(path) if path else None, dict(overrides or {}))
    for key, value in settings.overrides.items():
        section, _, name = key.partition(".")
        getattr(settings, section)[name] = value
    if settings.preset is not None and settings.preset not in presets:
        raise settings.blame(ConfigError(f"unknown preset {settings.preset!r}; choose one of {', '.join(presets)}"))
    return settings


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Reads YAML or TOML; a syntax error names the file and line; unknown top-level keys are errors."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"no such config file: {path}")
    if path.suffix not in (".toml", ".yaml", ".yml"):
        raise ConfigError(f"config file {path} must end in .yaml, .yml or .toml")
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text) if path.suffix == ".toml" else load_yaml(text) or {}
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: byte {e.start + 1} is not UTF-8; save the file as UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:  # its message ends "(at line L, column C)"
        raise ConfigError(f"{path}: TOML syntax error: {e}; fix the file") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}{where}: YAML syntax error: {getattr(e, 'problem', None) or e}; fix the file") from None
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path} must hold a mapping with keys preset, model, train")
    unknown = sorted(set(data) - {"preset", "model", "train"})
    if unknown:
        raise ConfigError(f"unknown key(s) in {path}: {', '.join(map(str, unknown))}; allowed: preset, model, train")
    for section in ("model", "train"):
        if not isinstance(data.get(section, {}), dict):
            raise ConfigError(f"{path}, line {line_of(path, section)}: {section} must be a mapping of field: value, "
                              f"not {data[section]!r}")
    if not isinstance(data.get("preset", ""), str):
        raise ConfigError(f"{path}, line {line_of(path, 'preset')}: preset must be one of {', '.join(PRESETS)}")
    return data


def line_of(path: Path, key: str) -> int | None:
    """The first line of a YAML or TOML file that sets ``key`` (``key:``, ``key =``, ``[key]``), if any."""
    pattern = re.compile(rf"(^|[\s{{,]){re.escape(key)}\s*[:=]|^\s*\[{re.escape(key)}\]")
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if pattern.search(line):
            return number
    return None
