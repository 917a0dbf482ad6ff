"""Music: Bach chorales modelled token by token (Huang et al. 2018, the Music Transformer's JSB experiments).

The model and training presets for the chorales, and the task built from music21's corpus (cached
once; see ``aiayn.data.music``). Two position schemes, everything else equal:
  * ``absolute``: the paper's sinusoids added to the embeddings, full attention;
  * ``relative``: no absolute positions; relative self-attention, distances clipped at 256 tokens
    (4 bars).
Training windows hold whole chorales (2,048 tokens holds every piece of the train split; a few test
chorales run to 3,088 tokens): at the same time budget they model whole pieces far better than 4-bar
windows (docs/music.md, "Whole chorales").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import torch

from ..checks import Allowed, check_fields
from ..data import music
from ..errors import UsageError
from ..inference.generator import Generator
from ..io.atomic import atomic_path
from ..metrics.chorales import PERFECT, forbidden_parallels, out_of_range, pitches
from ..model.config import LanguageModelConfig
from ..training.loss import LossSums, label_smoothed_cross_entropy, unlikelihood
from .chorales import LENGTHS, SAMPLING, WINDOW, chorale_sequences
from .declared import filled, option
from .language_model import LanguageModelObjective, SequenceBatch, nll_by_position
from .music_grade import GRADE, RULE_HELP, RULES, run_grade, sample_figures
from .requests import EvaluateRequest, GenerateRequest
from .spec import Setup, Task, load_trained

MAX_DISTANCE = 256  # relative distances clipped at 64 sixteenths = 4 bars (farther keys share one vector)

MUSIC_MODEL = dict(vocab_size=music.VOCAB_SIZE, pad_id=music.PAD, bos_id=music.BOS, eos_id=music.EOS, d_model=256,
                   n_heads=8, d_ff=1024, n_layers=4, dropout=0.1, max_positions=4096)
# four 2,048-token windows per update: one chorale per update left the model on the unigram plateau for
# hundreds of updates and learned far less per token read (docs/music.md, "The model trained further")
MUSIC_TRAIN = dict(max_tokens=8192, warmup=100, lr_scale=0.3, label_smoothing=0.0, max_steps=100_000, log_every=10,
                   valid_every=50, save_every=50, keep_last=5)


SCHEMES = {  # the two position schemes compared in the README; relative is the Music Transformer's
    "relative": dict(attention="relative", positional="none", max_relative_distance=MAX_DISTANCE),
    "absolute": dict(attention="full", positional="sinusoidal"),
}
# issue 29: relative attention cannot tell S from A; learned embeddings of the voice (token mod 4) and of
# the sixteenth mod 16 (a 4/4 bar, counted from the first note) tell it. Preset "voices"; off elsewhere.
VOICE_GRID = dict(voice_embedding=len(music.VOICES), metre_embedding=16)


def music_model_config(positions: str = "relative", **overrides) -> LanguageModelConfig:
    """The chorale model with ``absolute`` or ``relative`` positions (relative distances clipped at ``MAX_DISTANCE``)."""
    if positions not in SCHEMES:
        raise ValueError(f"positions must be one of {', '.join(SCHEMES)}, not {positions!r}")
    return LanguageModelConfig.from_dict({**MUSIC_MODEL, **SCHEMES[positions], **overrides})


@dataclass
class MusicTraining:
    """Music's own train settings, in a run's train section beside ``TrainConfig``'s
    (``--set train.unlikelihood=1``); declared as options, so other tasks refuse them by name."""

    unlikelihood: float = option(0.0, "α of the unlikelihood term (Welleck et al. 2019) on each pitch that would "
                                 "make a parallel 5th or 8ve with a voice already written at its sixteenth; 0: the "
                                 "plain NLL of the Music Transformer", flag=None)

    RESUMABLE: ClassVar[tuple[str, ...]] = ()
    RANGES: ClassVar[dict[str, Allowed]] = {"unlikelihood": Allowed(float, 0)}

    def __post_init__(self) -> None:
        check_fields(self, self.RANGES, prefix="train.")


@dataclass
class MusicGenerate:
    """`aiayn generate`'s music options: the primers to continue, how much of them to keep and how much
    to add, and what sampling may not draw."""

    primers: list[str] | None = option(None, "continue this piece: a MusicXML/MIDI/kern file, or test:N for test "
                                       "chorale N (repeatable)", "--primer", together="primers", action="append",
                                       metavar="FILE|test:N")
    primer_tokens: int | None = option(None, "keep only the first N tokens of each primer (4 tokens = one sixteenth "
                                       "of S A T B; 64 = one 4/4 bar)", together="primers", metavar="N")
    length: int = option(512, "tokens to add after the primer (default 512 = 8 bars)", together="primers")
    rule: str = option("none", RULE_HELP, choices=RULES)

    RANGES: ClassVar[dict[str, Allowed]] = LENGTHS

    def __post_init__(self) -> None:
        for name, allowed in self.RANGES.items():  # as their flags name them: --primer-tokens
            allowed.check(f"--{name.replace('_', '-')}", getattr(self, name))


class ChoraleObjective(LanguageModelObjective):
    """The language model's windows and NLL; with ``unlikelihood`` α > 0 the loss adds α times the
    unlikelihood of every pitch that would make a parallel 5th or 8ve (``forbidden_parallels``), except
    where Bach wrote one. Validation stays the NLL alone."""

    def __init__(self, *args, unlikelihood: float = 0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.unlikelihood = unlikelihood

    def loss(self, model, batch: SequenceBatch, epsilon: float) -> LossSums:
        logits = batch.logits(model)
        out = label_smoothed_cross_entropy(logits, batch.targets, epsilon, self.pad_id)
        if not self.unlikelihood:
            return out
        forbidden = forbidden_parallels(batch.inputs, batch.starts)
        return out._replace(loss=out.loss + self.unlikelihood * unlikelihood(logits, forbidden, batch.targets, self.pad_id))

    @torch.no_grad()
    def parallels(self, model, device, batch_size: int = 16) -> dict[str, float]:
        """Parallel 5ths and 8ves per 100 quarters, continuing the validation chorales one token at a time
        (teacher forcing, every token once): how many the model is expected to write (its probability on the
        pitches ``forbidden_parallels`` names, summed) and how many Bach wrote there. Each counts a voice's
        step once however many voices above it it runs parallel with; no sampling, so no sampling noise."""
        sums = {f"{kind}_{who}": 0.0 for kind in PERFECT for who in ("expected", "bach")}
        picks = self.sliding_windows(self.valid)
        model.eval()
        for b in range(0, len(picks), batch_size):
            batch = self._batch(self.valid, None, picks[b: b + batch_size]).to(device)
            p = batch.logits(model).float().softmax(-1)
            for kind in PERFECT:
                forbidden = forbidden_parallels(batch.inputs, batch.starts, (kind,)) & (batch.targets != self.pad_id)[..., None]
                sums[f"{kind}_expected"] += float((p * forbidden).sum())
                sums[f"{kind}_bach"] += float(forbidden.gather(-1, batch.targets[..., None]).sum())
        quarters = sum(len(s) - 2 for s in self.valid) / (4 * music.STEPS_PER_QUARTER)  # BOS and EOS aside
        return {f"parallel_{name}": 100 * total / quarters for name, total in sums.items()}


GENERATE_DEFAULTS = {"samples": 4, **SAMPLING}  # `aiayn generate`'s: 4 samples per primer, SAMPLING's settings

DATA_RANGES = {"window": Allowed(int, 2, 1 << 16), "transpose": Allowed(int, 0, 12), "in_range": Allowed(bool)}


def chorale_task(window: int = WINDOW, max_tokens: int = MUSIC_TRAIN["max_tokens"], cache: str | Path | None = None,
                 progress=None, transpose: int = 0, in_range: bool = False,
                 unlikelihood: float = 0.0) -> ChoraleObjective:
    """Training windows over the train split; validation on the valid split. ``transpose`` N adds
    each training chorale moved by ±1 .. ±N semitones (where every pitch stays in the vocabulary);
    ``in_range``: only the moved copies that put no more notes outside the voices' choir ranges than their
    original (±5 semitones otherwise sing 3.9% of notes out of range against Bach's 0.56%); ``unlikelihood``: α of
    ``ChoraleObjective``."""
    _, train = chorale_sequences("train", cache, progress)
    shifts = [k for k in range(-transpose, transpose + 1) if k]
    outside = [out_of_range(pitches(seq)) for seq in train] if in_range else None
    train += [moved for k in shifts for i, seq in enumerate(train) if (moved := music.transpose(seq, k)) is not None
              and (outside is None or out_of_range(pitches(moved)) <= outside[i])]
    _, valid = chorale_sequences("valid", cache)
    return ChoraleObjective(train, valid, window, max_tokens, music.BOS, music.EOS, music.PAD,
                            unlikelihood=unlikelihood)


def _primers(options: MusicGenerate) -> list[tuple[str, list[int]]]:
    """(name, tokens) per primer (none: one empty primer named "sample"), cut to --primer-tokens."""
    named: list[tuple[str, list[int]]] = [] if options.primers else [("sample", [])]
    for spec in options.primers or []:
        if spec.startswith("test:"):
            names, seqs = chorale_sequences("test")
            index = int(spec[5:]) if spec[5:].isdigit() else -1
            if not 0 <= index < len(seqs):
                raise UsageError(f"{spec}: the test split has chorales test:0 .. test:{len(seqs) - 1}")
            named.append((Path(names[index]).stem, seqs[index]))
        else:
            named.append((Path(spec).stem, music.read_primer(spec)))
    if options.primer_tokens is not None:
        keep = options.primer_tokens - options.primer_tokens % 4  # whole sixteenths of S A T B
        named = [(name, tokens[:keep]) for name, tokens in named]
    return named


def generate_music(request: GenerateRequest) -> list[Path]:
    """Samples ``request.samples`` pieces per primer (none: from scratch), each ``--length`` tokens past
    its primer, written as MIDI and as a piano-roll PNG into the folder ``request.out``; returns the
    MIDI paths. Primers (``MusicGenerate``, in ``request.task_options``): files music21 reads (MusicXML,
    MIDI, kern), or ``test:N``. The primers and the model are checked before the folder is made."""
    from ..plots.music import plot_piano_roll  # matplotlib: only this verb needs it

    options, request = filled(MusicGenerate, request.task_options), request.given_or(GENERATE_DEFAULTS)
    samples, length = request.samples, options.length
    named = _primers(options)
    generator = Generator.load(request.model, request.device)
    out = Path(request.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file; music models write a folder of .mid and .png files: choose a folder")
    out.mkdir(parents=True, exist_ok=True)
    jobs = [(name, tokens, i) for name, tokens in named for i in range(samples)]
    (t, k, p), seed = request.sampling(), request.seed
    rule = options.rule
    ruled = "" if rule == "none" else f", {rule}"
    pieces = generator.generate([tokens for _, tokens, _ in jobs], length, t, k, p, seed, rule=RULES[rule])
    written = []
    for (name, primer, i), piece in zip(jobs, pieces):
        stem = f"{name}-seed{seed}-{i + 1}"  # chorale names hold dots (bwv110.7): no with_suffix
        with atomic_path(out / f"{stem}.mid") as tmp:  # a full disk leaves no half-written file
            music.write_midi(piece, tmp)
        written.append(out / f"{stem}.mid")
        title = f"{name}, sample {i + 1} (seed {seed}, T={t}, top-k {k}, top-p {p}{ruled})"
        with atomic_path(out / f"{stem}.png") as tmp:
            plot_piano_roll(piece, tmp, title=title, primer_len=len(primer) or None)
    return written


def evaluate_music(model: str | Path, split: str = "test", device: str = "cpu", beyond: bool = False) -> dict[str, float]:
    """NLL per token (nats; EOS included) and perplexity of a chorale split, every token once in
    sliding windows of the run's training length (its config.json's data.window; ``WINDOW`` for a
    lone weights file). ``beyond``, for a run trained on windows shorter than whole chorales: also the
    mean NLL of the positions inside its window and of those past it up to twice the window, each longer
    chorale read in one pass (the Music Transformer's test of positions never seen in training). And the
    parallels it is expected to write continuing the split's chorales, beside Bach's (``ChoraleObjective.parallels``)."""
    loaded = load_trained(model, ("music",), "score it with `aiayn evaluate` as its own task")
    window = loaded.data_settings().get("window", WINDOW)
    generator = Generator(loaded.model, device)
    _, seqs = chorale_sequences(split)
    scorer = ChoraleObjective([], seqs, window, 4096, music.BOS, music.EOS, music.PAD)
    figures = scorer.validate(generator.model, generator.device)
    out = {"nll": figures["valid_nll"], "ppl": figures["valid_ppl"], "tokens": figures["valid_tokens"],
           "bits_per_token": figures["valid_nll"] / math.log(2), "window": window,
           **scorer.parallels(generator.model, generator.device)}
    longer = [s[: 2 * window] for s in seqs if len(s) > window] if beyond and window < WINDOW else []
    if longer:
        nll, count = nll_by_position(generator.model, longer, music.BOS, device=generator.device)
        out |= {"nll_within": float(nll[:window].sum() / count[:window].sum()),
                "nll_beyond": float(nll[window:].sum() / count[window:].sum()), "pieces_beyond": len(longer)}
    return out


class Music(Task):
    """Bach chorales token by token: relative or absolute positions, sampled, scored and graded."""

    name, help = "music", "Bach chorales, token by token (Music Transformer; music21's corpus)"
    presets = {**{name: {"positions": name} for name in SCHEMES}, "voices": {"positions": "relative", **VOICE_GRID}}
    preset_help = ("relative (default: relative self-attention), absolute (sinusoids, full attention) or voices "
                   "(relative, plus embeddings of each token's voice and sixteenth in the bar)")
    train, train_settings, objective = MUSIC_TRAIN, MusicTraining, ChoraleObjective
    data = {"corpus": "music21 Bach chorales", "window": WINDOW, "transpose": 0, "in_range": False}
    verbs = ("evaluate", "generate", "grade", "serve")
    options, defaults = {"generate": MusicGenerate}, {"generate": GENERATE_DEFAULTS}
    commands = {"grade": (GRADE.add, run_grade)}

    def model_config(self, **fields: Any) -> LanguageModelConfig:
        return music_model_config(**fields)

    def subject(self, path, device: str = "cpu", dtype: str = "float32") -> Generator:
        return Generator.load(path, device)

    def prepare(self, data: dict) -> tuple[dict, dict]:
        """A new run's data settings, checked (``--set data.transpose=x`` is a one-line error, not a traceback)."""
        for name, allowed in DATA_RANGES.items():
            allowed.check(f"data.{name}", data[name])
        return data, {}

    def build(self, setup: Setup, model_config, train_config, data: dict) -> ChoraleObjective:
        return chorale_task(data["window"], train_config.max_tokens, progress=setup.progress,
                            transpose=data["transpose"], in_range=data["in_range"],
                            unlikelihood=train_config.task_settings.unlikelihood)

    def evaluate(self, request: EvaluateRequest) -> str:
        f = evaluate_music(request.model, "test", request.device, beyond=True)
        text = (f"Bach chorales, test split ({f['tokens']:,} tokens, each scored once in windows of {f['window']}):\n"
                f"NLL {f['nll']:.4f} nats/token ({f['bits_per_token']:.4f} bits), perplexity {f['ppl']:.3f}\n"
                "Parallels per 100 quarters, continuing these chorales a token at a time (the model's expected "
                "count; Bach's): " + ", ".join(f"{k} {f[f'parallel_{k}_expected']:.2f} ({f[f'parallel_{k}_bach']:.2f})"
                                               for k in PERFECT))
        if "nll_beyond" in f:  # trained on windows shorter than whole chorales: how it reads past them
            text += (f"\nThe {f['pieces_beyond']} chorales longer than {f['window']} tokens read in one pass, up to "
                     f"{2 * f['window']}: NLL {f['nll_within']:.4f} inside the training window, "
                     f"{f['nll_beyond']:.4f} past it")
        return text

    def generate(self, request: GenerateRequest) -> str:
        return "\n".join(f"{path}  {str(path)[:-4]}.png" for path in generate_music(request))

    figures_text = "NLL per token on the {split} split (each token once)"

    def figures(self, model: Path, split: str) -> dict[str, float]:
        """The experiment's figures of a run: NLL on ``split`` (inside and past the training window where it
        is shorter than whole chorales) and the part-writing of 20 unconditional samples at ``SAMPLING``."""
        f = evaluate_music(model, split, beyond=True)
        out = {f"{split}_{k}": f[k] for k in ("nll", "ppl", "tokens", "nll_within", "nll_beyond", "pieces_beyond",
                                              *(f"parallel_{k}_{w}" for k in PERFECT for w in ("expected", "bach")))
               if k in f}
        graded = sample_figures(model)
        return out | {f"samples_{k}": v for k, v in graded["model"].items()} | {"bach": graded["bach"]}


TASK = Music()
