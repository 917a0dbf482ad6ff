"""``aiayn experiment``: run a reproduction named by a YAML file of runs, then print its table."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from tqdm import tqdm

from .. import experiments
from ..errors import UsageError
from ..experiments import report, runner
from ..io.checkpoint import read_header
from ..io.rundir import RunDir

EPILOG = """examples:
  aiayn experiment table3 --list            # its runs and which are done, running or not started
  aiayn experiment bottleneck               # RNNencdec against RNNsearch on a copy task, 4,000 updates each
  aiayn experiment table3 --only tiny A-h1  # just these runs
  aiayn experiment recurrent --report       # the table and plots again, from results.json alone
  OMP_NUM_THREADS=1 aiayn experiment table3 &   # the same command in two shells: two runs side by side,
  OMP_NUM_THREADS=1 aiayn experiment table3 &   # one core each; each skips the run the other is training

Stop it at any moment: the same command continues where it stopped (Ctrl-C or a kill saves the step in
progress; a hard kill loses at most one checkpoint interval); scored runs are skipped. The runs live in
RUNS/NAME/RUN (checkpoints: keep them out of git); each scored run appends a record to
RESULTS/NAME/results.json, from which table.md and the plots are made.
Write your own experiment: copy one of the YAML files in aiayn/experiments/ and give its path instead of a name."""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("experiment", help="reproduce a finding of the papers: train, score and tabulate many runs",
                       description="Runs a named experiment (" + ", ".join(experiments.names()) + ") or your YAML file "
                       "of runs: trains every run that is missing through `aiayn train` (resuming interrupted ones "
                       "exactly), scores each the same way, and writes results.json, table.md and plots.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("experiment", metavar="NAME", help=f"one of {', '.join(experiments.names())}, or a YAML file")
    p.add_argument("--only", nargs="+", metavar="RUN", help="run (and score) only these runs of the experiment")
    p.add_argument("--runs", default="runs/experiments", metavar="DIR",
                   help="where the runs are trained (default runs/experiments)")
    p.add_argument("--results", default="docs/experiments", metavar="DIR",
                   help="where results.json, table.md and the plots go (default docs/experiments)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--list", action="store_true", help="list the runs and their state; train nothing")
    mode.add_argument("--report", action="store_true", help="remake the table and plots from results.json only")
    return p


def run(args: argparse.Namespace) -> None:
    exp = experiments.load(args.experiment)
    runs_root, results_root = Path(args.runs), Path(args.results)
    if args.list:
        print(_listing(exp, runs_root, runner.Results(results_root / exp.name / "results.json")))
        return
    if not args.report:
        runner.run_experiment(exp, runs_root, results_root, args.only, progress=tqdm)
    records = runner.Results(results_root / exp.name / "results.json").records
    print(report.render(exp, records, results_root / exp.name))
    print(f"wrote {results_root / exp.name}/table.md")


def _listing(exp: experiments.Experiment, runs_root: Path, results: runner.Results) -> str:
    lines = [f"{exp.name}: {exp.title}"]
    width = max(14, *(len(spec.name) for spec in exp.runs))
    for spec in exp.runs:
        run = RunDir(runs_root / exp.name / spec.name)
        if spec.tuned:  # its record was made with the tuned setting; a tuning not finished leaves the spec as written
            with contextlib.suppress(UsageError):
                spec = runner.with_tuning(spec, results.path.parent.parent)
        if results.done(spec):
            state = "done"
        elif spec.teacher and not run.holds_run() and not results.done(exp.run(spec.teacher)):
            state = f"waits for its teacher {spec.teacher}"
        elif run.in_use():
            state = "training now"
        elif run.holds_run():  # what --resume continues from, which may trail the log by a save interval
            state = f"started, {read_header(run.state)[1]['step']:,} updates saved"
        elif run.holds_unsaved_start():
            state = "started, nothing saved yet (starts again)"
        else:
            state = "not started"
        lines.append(f"  {spec.name:<{width}} {spec.budget:<22} {state}")
    return "\n".join(lines)
