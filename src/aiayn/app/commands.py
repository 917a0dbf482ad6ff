"""The verbs behind the command line, as plain functions: train, translate, evaluate, average."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
from pathlib import Path
from typing import Any

from .. import corpus, tasks
from ..checks import Allowed
from ..data import DataError, Tokenizer, open_parallel, read_parallel
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..inference.translator import Translator
from ..io.checkpoint import CheckpointError, atomic_path, average_checkpoints
from ..io.registry import model_class
from ..io.rundir import RunDir
from ..model.config import PRESETS, RNNSearchConfig, TransformerConfig
from ..precision import DTYPES
from ..tasks import Task
from ..tasks.translation import TranslationTask, batch_corpus, check_writable
from ..training import distributed as D
from ..training.config import RESUMABLE, TrainConfig, load_config, read_settings
from ..training.trainer import Interrupted, Trainer, stop_on_signals
from . import preprocess

log = logging.getLogger("aiayn")
AVERAGE_LAST = Allowed(int, 1)  # checkpoints to average


def _write_json(path: Path, data: dict[str, Any]) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")


def _data_paths(train: str | None, valid: str | None) -> tuple[str, str | None]:
    if train is None:  # the built-in Bible corpus
        return str(corpus.builtin("train")), valid or str(corpus.builtin("valid"))
    return train, valid


def _vocab_fields(tok: Tokenizer) -> dict[str, int]:
    return dict(src_vocab_size=tok.vocab_size, pad_id=tok.pad_id, bos_id=tok.bos_id, eos_id=tok.eos_id)


def _read_data(train: str | None, valid: str | None, src: str | None, tgt: str | None):
    """(data record, the training data, the validation pairs or None). The training data is text opened
    for streaming (its header checked, its lines not read) or an ``aiayn preprocess`` folder; the
    validation pairs are small and read whole (BLEU needs their text)."""
    train_path, valid_path = _data_paths(train, valid)
    if preprocess.is_prepared(train_path):
        train_data = preprocess.read_prepared(train_path)
        src_lang, tgt_lang = train_data.meta["src"], train_data.meta["tgt"]
        for option, given, lang in (("--src", src, src_lang), ("--tgt", tgt, tgt_lang)):
            if given not in (None, lang):
                raise UsageError(f"{train_path} was preprocessed for {src_lang} -> {tgt_lang}; drop {option} {given}")
        valid_path = valid_path or train_data.valid
    else:
        train_data = open_parallel(train_path, src, tgt)
        src_lang, tgt_lang = train_data.src_lang, train_data.tgt_lang
    valid_corpus = read_parallel(valid_path, src_lang, tgt_lang) if valid_path else None
    data = {"train": train_path, "valid": valid_path, "src": src_lang, "tgt": tgt_lang}
    return data, train_data, valid_corpus


@dataclasses.dataclass
class TrainRequest:
    """What ``aiayn train`` is asked to do. ``out``: the run directory (see ``RunDir``).

    ``task``: "translation" (the default for a new run) on ``train``/``valid``, or another task of
    ``aiayn.tasks.registry()`` (e.g. "music"); a resumed run keeps its own. ``preset`` <
    ``config_file`` < ``overrides`` ({"model.FIELD" or "train.FIELD": value}) make the settings.
    ``progress``: a tqdm-like factory for the progress bar (``aiayn.progress``); None shows nothing.
    ``data``: data settings of a built-in task that differ from its defaults (music: ``window``,
    ``transpose``). ``arch``: the translation model, one of ``TRANSLATION_ARCHS`` (default: the Transformer).
    """

    out: str | Path
    train: str | None = None
    valid: str | None = None
    src_lang: str | None = None
    tgt_lang: str | None = None
    preset: str | None = None
    config_file: str | None = None
    overrides: dict[str, Any] = dataclasses.field(default_factory=dict)
    resume: bool = False
    vocab: str | None = None
    device: str | None = None
    task: str | None = None
    progress: Any = None
    data: dict[str, Any] | None = None
    arch: str | None = None


def train(request: TrainRequest | str | Path, **fields: Any) -> RunDir:
    """Trains a model as ``request`` says (or ``TrainRequest(out, **fields)``); returns its run directory.

    Settings and data are checked before anything is written; one process at a time owns the run.
    SIGINT or SIGTERM saves the training state after the current step and raises ``Interrupted``.
    """
    r = request if isinstance(request, TrainRequest) else TrainRequest(request, **fields)
    out, train, valid, src_lang, tgt_lang, preset = r.out, r.train, r.valid, r.src_lang, r.tgt_lang, r.preset
    config_file, resume, vocab, device, task, progress, data, arch = (r.config_file, r.resume, r.vocab, r.device,
                                                                      r.task, r.progress, r.data, r.arch)
    run, world = RunDir(out), D.init_world(device)
    if resume and not run.path.is_dir():
        raise UsageError(f"nothing to resume: {out} does not exist; train without --resume to start a run there")
    overrides = dict(r.overrides or {})
    if resume:
        task = _resumed_task(run, task)
    recipe = _recipe(task, train, valid, src_lang, tgt_lang, vocab)
    if recipe and (train or valid):  # a task that reads the user's files (parsing)
        if resume:
            raise UsageError("--resume continues on the run's own data: drop --train and --valid")
        data = {**(data or {}), **{k: v for k, v in (("train", train), ("valid", valid)) if v is not None}}
    if arch is not None and (recipe or resume):
        raise UsageError(f"--arch chooses the model of a new translation run; drop --arch {arch}"
                         + (" (a resumed run keeps its own)" if resume else f" for --task {task}"))
    if arch is not None and arch not in TRANSLATION_ARCHS:
        raise UsageError(f"unknown --arch {arch!r}; choose one of {', '.join(TRANSLATION_ARCHS)}")
    if not resume:  # everything checked before anything is written
        checked = (_check_new_recipe(recipe, preset, config_file, overrides, data) if recipe else
                   _check_new_run(train, valid, src_lang, tgt_lang, preset, config_file, overrides, vocab,
                                  arch or "transformer"))
    with run.owned() if world.is_main else contextlib.nullcontext():
        try:
            _check_resumable(run) if resume else _claim_new(run, world)
            if resume and recipe:
                trainer, record = _resume_recipe(run, world, recipe, preset, config_file, overrides, progress)
            elif resume:
                trainer, record = _resume(run, world, train, valid, src_lang, tgt_lang, preset, config_file,
                                          overrides, vocab, progress)
            elif recipe:
                trainer, record = _start_recipe(run, world, recipe, *checked, progress)
            else:
                trainer, record = _start(run, world, *checked, progress)
            if world.is_main:  # written once the whole run is known to be consistent
                _write_json(run.config, record)
            with stop_on_signals(trainer):
                trainer.fit()
        finally:
            D.shutdown(world)
    if trainer.stop_signal is not None:
        raise Interrupted(trainer.stop_signal, trainer.step, run.path)
    return run


# Translation models: the Transformer, and Bahdanau et al.'s RNNsearch with its no-attention control.
TRANSLATION_ARCHS = {"transformer": (TransformerConfig, {}), "rnnsearch": (RNNSearchConfig, {"attention": True}),
                     "rnnencdec": (RNNSearchConfig, {"attention": False})}


def _recipe(task: str | None, train, valid, src_lang, tgt_lang, vocab) -> Task | None:
    """The task named ``task`` when it builds its own data (None for a task that reads the user's
    parallel text: translation); the data options it does not read are refused."""
    spec = tasks.get(task or tasks.DEFAULT)
    given = [f"--{name}" for name, value in (("train", train), ("valid", valid), ("src", src_lang), ("tgt", tgt_lang),
                                               ("vocab", vocab)) if value is not None and name not in spec.data_options]
    if given:
        raise UsageError(f"{given[0]} is for translation; --task {spec.name} trains on its built-in data: "
                         f"drop {given[0]}")
    return spec if spec.build is not None else None


def _resumed_task(run: RunDir, given: str | None) -> str:
    """The task of the run in ``run`` (runs from before tasks had names are translation)."""
    try:
        saved = json.loads(run.config.read_text(encoding="utf-8")).get("task", tasks.DEFAULT)
    except (OSError, ValueError, AttributeError):
        return given or tasks.DEFAULT  # _resume reports the damage
    if given not in (None, saved):
        raise UsageError(f"{run.path} holds a {saved} run, not {given}: drop --task {given} to resume it")
    return saved


def _check_new_recipe(recipe: Task, preset, config_file, overrides, data):
    settings = read_settings(preset, config_file, overrides, presets=recipe.presets)
    preset = settings.preset or next(iter(recipe.presets))
    unknown = sorted(set(data or {}) - set(recipe.data))
    if unknown:
        raise UsageError(f"unknown {recipe.name} data setting {unknown[0]!r}; known: {', '.join(recipe.data)}")
    data, fixed = (recipe.prepare or (lambda d: (d, {})))({**recipe.data, **(data or {})})
    try:
        model_cfg = recipe.config(preset, {**settings.model, **fixed})  # what the data fixes wins
        return preset, model_cfg, TrainConfig.from_dict({**recipe.train, **settings.train}), data
    except ValueError as e:
        raise settings.blame(e) from None


def _claim_new(run: RunDir, world: D.World) -> None:
    """A new run may start in ``run`` (owned by now): it holds none, or one that never saved (cleared)."""
    if run.holds_run():
        raise UsageError(f"{run.path} already holds a run; pass --resume to continue it, or choose another --out")
    if run.holds_unsaved_start() and world.is_main:
        log.warning("%s holds a run that stopped before its first save; starting it again", run.path)
        run.clear_unsaved_start()


def _check_resumable(run: RunDir) -> None:
    if not run.holds_run():
        hint = ("it stopped before its first save; run the same command without --resume to start it again"
                if run.holds_unsaved_start() else "it has no state.safetensors")
        raise UsageError(f"nothing to resume in {run.path}: {hint}")


def _start_recipe(run: RunDir, world: D.World, recipe: Task, preset, model_cfg, train_cfg, data, progress):
    task = recipe.build(model_cfg, train_cfg, data, progress)
    trainer = Trainer(run, model_cfg, train_cfg, task, world, task_name=recipe.name, progress=progress)
    if world.is_main:
        log.info("training %s %s (%s parameters) into %s", recipe.name, preset,
                 f"{trainer.model.num_parameters():,}", run.path)
    return trainer, {"task": recipe.name, "preset": preset, "architecture": trainer.model.architecture,
                     "model": model_cfg.to_dict(), "train": train_cfg.to_dict(), "data": data}


def _resume_recipe(run: RunDir, world: D.World, recipe: Task, preset, config_file, overrides, progress):
    saved = _saved_config(run)
    model_cfg, train_cfg, changed = _resumed_config(run, saved, preset, config_file, overrides, recipe.presets)
    data = {**recipe.data, **saved["data"]}  # settings added since the run was written keep their defaults
    task = recipe.build(model_cfg, train_cfg, data, progress)
    trainer = Trainer(run, model_cfg, train_cfg, task, world, task_name=recipe.name, progress=progress)
    trainer.resume(changed)
    return trainer, {**saved, "train": train_cfg.to_dict()}


def _check_new_run(train, valid, src_lang, tgt_lang, preset, config_file, overrides, vocab, arch):
    """Settings from preset < config file < overrides, the data and a given vocabulary, all checked."""
    config_class, fixed = TRANSLATION_ARCHS[arch]
    preset, model_fields, train_cfg = load_config(preset, config_file, overrides, config_class)
    model_fields = {**model_fields, **fixed}
    data, train_data, valid_corpus = _read_data(train, valid, src_lang, tgt_lang)
    if not isinstance(train_data, preprocess.Prepared):
        train_data.check()  # bad text is one line now, before the run directory exists
    given = Tokenizer.load(vocab) if vocab else None
    if isinstance(train_data, preprocess.Prepared):  # its ids are in its own vocabulary
        if given and given.fingerprint() != train_data.tokenizer.fingerprint():
            raise UsageError(f"{vocab} is not the vocabulary {train_data.path} was preprocessed with; drop --vocab")
        given = train_data.tokenizer
    return arch, preset, model_fields, train_cfg, data, train_data, valid_corpus, given


def _start(run: RunDir, world: D.World, arch, preset, model_fields, train_cfg, data, train_data, valid_corpus,
           given_vocab, progress=None):
    """A new run in ``run`` (claimed by now), with a fresh vocabulary or the one given."""
    tokenizer = _make_tokenizer(run, world, train_data, train_cfg, given_vocab)
    try:
        model_cfg = TRANSLATION_ARCHS[arch][0].preset(preset, **{**model_fields, **_vocab_fields(tokenizer)})
    except ValueError as e:
        raise UsageError(f"the model config does not fit the vocabulary: {e}") from None
    trainer = _trainer(run, world, model_cfg, train_cfg, tokenizer, train_data, valid_corpus, progress)
    data = {**data, "train_fingerprint": trainer.task.train.pairs.header["data_fingerprint"]}  # --resume checks it
    if world.is_main:
        log.info("training %s (%s parameters) on %d pairs (%s -> %s) into %s", preset,
                 f"{trainer.model.num_parameters():,}", len(trainer.task.train), data["src"], data["tgt"], run.path)
    return trainer, {"task": tasks.DEFAULT, "preset": preset, "arch": arch, "architecture": trainer.model.architecture,
                     "model": model_cfg.to_dict(), "train": train_cfg.to_dict(), "data": data}


def _resume(run: RunDir, world: D.World, train, valid, src_lang, tgt_lang, preset, config_file, overrides, vocab,
            progress=None):
    """The saved run on the saved data; only limits and intervals may change (written to the log)."""
    if vocab:
        raise UsageError("--vocab cannot change when resuming: the run keeps its spm.model; drop --vocab")
    saved = _saved_config(run)
    saved_data = saved["data"]
    for field, given in (("train", train), ("valid", valid), ("src", src_lang), ("tgt", tgt_lang)):
        if given is not None and not _same(field, given, saved_data.get(field)):
            raise UsageError(f"--{field} {given} differs from the run's {saved_data.get(field) or '(none)'}; --resume "
                             f"continues on the run's data: drop --{field}, or start a new run with another --out")
    model_cfg, train_cfg, changed = _resumed_config(run, saved, preset, config_file, overrides)
    _, train_data, valid_corpus = _read_data(saved_data["train"], saved_data["valid"], saved_data["src"],
                                             saved_data["tgt"])
    data_fp = preprocess.check_unchanged(train_data, saved_data.get("train_fingerprint"))  # before any rebuild
    tokenizer = Tokenizer.load(run.tokenizer)
    trainer = _trainer(run, world, model_cfg, train_cfg, tokenizer, train_data, valid_corpus, progress, data_fp)
    trainer.resume(changed)
    return trainer, {**saved, "train": train_cfg.to_dict()}


def _saved_config(run: RunDir) -> dict:
    try:
        saved = json.loads(run.config.read_text(encoding="utf-8"))
        if not all(isinstance(saved[k], dict) for k in ("model", "train", "data")):
            raise TypeError("model, train and data must be mappings")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CheckpointError(f"{run.config} is missing or damaged ({e}); the run cannot be resumed") from None
    return saved


def _same(field: str, given: str, saved: str | None) -> bool:
    if field in ("src", "tgt") or saved is None:
        return given == saved
    return Path(given).resolve() == Path(saved).resolve()


def _resumed_config(run: RunDir, saved: dict, preset, config_file, overrides, presets=PRESETS):
    """The saved model and train config, with the train fields the user changed, if --resume allows them."""
    settings = read_settings(preset, config_file, overrides, presets)
    if settings.preset not in (None, saved["preset"]):
        raise UsageError(f"{run.path} was trained with preset {saved['preset']}, not {settings.preset}; "
                         "drop the preset to resume it")
    for name, value in settings.model.items():
        if saved["model"].get(name) != value:
            raise UsageError(f"{run.state} was built with a different model config: model.{name} is "
                             f"{saved['model'].get(name)!r}, not {value!r}; drop the model options to resume")
    changed = {k: [saved["train"].get(k), v] for k, v in settings.train.items() if saved["train"].get(k) != v}
    refused = sorted(set(changed) - set(RESUMABLE))
    if refused:
        raise UsageError(f"cannot change train.{refused[0]} when resuming (the run has {changed[refused[0]][0]!r}); "
                         f"only {', '.join(RESUMABLE)} may change: drop the others, or start a new run")
    try:
        model_cfg = model_class(saved.get("architecture")).config_class.from_dict(saved["model"])
        train_cfg = TrainConfig.from_dict({**saved["train"], **{k: new for k, (_, new) in changed.items()}})
    except ValueError as e:
        raise settings.blame(e) from None
    return model_cfg, train_cfg, changed


def _trainer(run, world, model_cfg, train_cfg, tokenizer, train_data, valid_corpus, progress=None,
             data_fp: str | None = None) -> Trainer:
    pairs = preprocess.training_pairs(train_data, tokenizer, world, progress, data_fp)  # mapped, built if missing
    encoded = batch_corpus(pairs, train_cfg, model_cfg.max_positions, "training data")
    task = TranslationTask(tokenizer, encoded, valid_corpus, train_cfg, model_cfg.max_positions)
    return Trainer(run, model_cfg, train_cfg, task, world, tokenizer.fingerprint(), has_valid=valid_corpus is not None,
                   task_name=tasks.DEFAULT, progress=progress)


def _make_tokenizer(run: RunDir, world: D.World, source, cfg: TrainConfig, given: Tokenizer | None) -> Tokenizer:
    """A joint sentencepiece BPE vocabulary over both sides (§5.1), learned from the text streamed
    (a bounded sample of a large corpus), or the one given; written once."""
    if world.is_main:
        if given:
            given.save(run.tokenizer)
        else:
            preprocess.learn_vocabulary(source, run.tokenizer, cfg.vocab_size, cfg.seed)
    D.barrier(world)
    return Tokenizer.load(run.tokenizer)


def translate_lines(model: str | Path, lines: list[str], options: DecodeOptions, device: str = "cpu",
                    progress=None, dtype: str = "float32") -> list[list[tuple[str, float]]]:
    return Translator.load(model, device, DTYPES[dtype]).translate_nbest(lines, options, progress=progress)


def attention(model: str | Path, text: str, out: str | Path, kind: str = "cross", layer: int = -1, beam_size: int = 4,
              device: str = "cpu") -> str:
    """Plots one layer's attention for ``text``'s translation into the PNG ``out``; returns the translation.
    ``layer``: 1-based, or negative from the last."""
    from ..plots.attention import plot_attention  # matplotlib: only this command needs it

    if not text.strip():
        raise UsageError("--text is empty: give the sentence to translate, e.g. --text 'God is love.'")
    translator = Translator.load(model, device)
    cfg = translator.model.config
    n_layers = getattr(cfg, "n_encoder_layers" if kind == "encoder" else "n_decoder_layers", 1)  # RNNsearch: one
    if not (1 <= layer <= n_layers or -n_layers <= layer <= -1):
        raise UsageError(f"--layer {layer} is out of range: this model has {n_layers} {kind} attention layer(s); "
                         f"choose 1 to {n_layers}, or -1 for the last")
    check_writable(Path(out), "--out")
    with atomic_path(Path(out)) as tmp:  # a full disk leaves no half-written picture
        return plot_attention(translator, text, tmp, kind, layer - 1 if layer > 0 else layer, beam_size)


def average(model: str | Path, last: int) -> Path:
    """§6.1: averages the last ``last`` step checkpoints of a run into average-last-K.safetensors."""
    AVERAGE_LAST.check("--last", last)
    run = RunDir(model)
    if not run.path.is_dir():
        raise UsageError(f"no run at {model}: --model must be a run directory, e.g. runs/tiny")
    found = run.list_checkpoints()
    if len(found) < last:
        fix = (f"average at most --last {len(found)}, or train longer" if found else
               "train until a checkpoint is saved (train.save_every), then average")
        raise UsageError(f"{model} has {len(found)} step checkpoint{'s' if len(found) != 1 else ''}; cannot average "
                         f"the last {last}: {fix} (train.keep_last sets how many a run keeps)")
    out = run.path / f"average-last-{last}.safetensors"
    average_checkpoints(found[-last:], out)
    return out


__all__ = ["DataError", "Interrupted", "TrainRequest", "UsageError", "attention", "average", "train",
           "translate_lines"]
