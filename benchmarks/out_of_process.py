"""Out-of-process cost (a benchmark, not a test; issue 17): the same work against the model in process and against
the model served over JSON lines (``jsonlines:mqconf serve --stdio``), and how long a failing state machine takes
to shrink when the implementation is out of process.

    .venv/bin/python benchmarks/out_of_process.py [--rounds N] [--hypothesis-shrink]

Figures, all from this one run (the machine's load moves them; the ratios are what to read):
- the 400-odd scenarios, in process and served: seconds and the ratio (the per-call cost of the protocol);
- ``mqconf run --no-campaign`` (quick profile: scenarios, table tests, the three machines), in process and
  served: seconds and the ratio. Target: at most 3x;
- a failing machine against a mutant served over JSON lines (``mqconf serve --stdio --adapter MUTANT``): the
  time Hypothesis takes to find the divergence, then the time to shrink it (conformance/differential.py
  :func:`~mq_conformance.conformance.differential.shrink`: live replays of sub-sequences of the recorded trace), the sequence's
  length before and after, and the replays spent. Target: the shrink under 30 s;
- with ``--hypothesis-shrink``, the same failing machine shrunk by Hypothesis's own shrinker, as the suite did
  before (in process only: through the pipe it takes minutes).

Each timed figure is the best of ``--rounds`` (default 2), rounds taken in turn so that load falls on both sides.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, settings  # noqa: E402
from hypothesis.stateful import run_state_machine_as_test  # noqa: E402

from mq_conformance.adapters.base import load  # noqa: E402
from mq_conformance.adapters.reference import ReferenceAdapter  # noqa: E402
from mq_conformance.conformance import differential  # noqa: E402
from mq_conformance.conformance.runner import reference_attribution, run_scenario  # noqa: E402
from mq_conformance.conformance.scenario import load_scenario, scenario_files  # noqa: E402
from mq_conformance import fixtures  # noqa: E402

# Found by the groups machine after a few examples, with a long sequence to shrink (27 calls when derandomized).
MUTANT = "mutant:truncation-warning-dropped"
QUICK = settings(max_examples=25, stateful_step_count=25, deadline=None, database=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow])


def mqconf() -> list[str]:
    script = Path(sys.executable).parent / "mqconf"
    return [str(script)] if script.exists() else [sys.executable, "-m", "mq_conformance.conformance.cli"]


def served(*arguments: str) -> str:
    return "jsonlines:" + shlex.join([*mqconf(), "serve", "--stdio", *arguments])


def scenarios_seconds(adapter_name: str, scenarios) -> float:
    adapter = load(adapter_name)
    try:
        attribution = reference_attribution(adapter)
        started = time.perf_counter()
        for scenario in scenarios:
            result = run_scenario(scenario, adapter, attribution)
            assert result.status in ("passed", "not claimed"), (scenario.id, result.status)
        return time.perf_counter() - started
    finally:
        adapter.close()


def run_seconds(adapter_name: str, folder: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run([*mqconf(), "run", "--no-campaign", "--adapter", adapter_name, "--output", str(folder)],
                          cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"mqconf run --adapter {adapter_name} failed (status {done.returncode}):\n"
                         + done.stdout[-2000:] + done.stderr[-2000:])
    return elapsed


def best(rounds: int, *measures) -> list[float]:
    """Each measure's best time over ``rounds`` rounds, the measures taken in turn within a round."""
    times = [[] for _ in measures]
    for _ in range(rounds):
        for slot, measure in zip(times, measures):
            slot.append(measure())
    return [min(slot) for slot in times]


def failing_machine(adapter_name: str) -> dict:
    """Detection by Hypothesis (no shrink phase), then :func:`differential.shrink` of the recorded trace."""
    adapter = load(adapter_name)
    try:
        machine = differential.machine_for(differential.GroupsMachine, adapter_name, adapter)
        machine.found = None
        started = time.perf_counter()
        try:
            run_state_machine_as_test(machine, settings=settings(QUICK, phases=(Phase.explicit, Phase.reuse,
                                                                               Phase.generate)))
        except differential.Divergence:
            pass
        detected = time.perf_counter() - started
        if machine.found is None:
            raise SystemExit(f"the groups machine did not catch {adapter_name}")
        started = time.perf_counter()
        steps, replays = differential.shrink(machine.found, ReferenceAdapter(), adapter)
        shrunk = time.perf_counter() - started
        assert steps[-1]["problems"], "the shrunk sequence no longer diverges"
        return {"detect": detected, "shrink": shrunk, "before": len(machine.found["trace"]), "after": len(steps),
                "replays": replays}
    finally:
        adapter.close()


def hypothesis_shrink(adapter_name: str) -> float:
    """The same machine shrunk by Hypothesis's own shrinker (what the suite did before), seconds in all."""
    adapter = load(adapter_name)
    try:
        started = time.perf_counter()
        try:
            run_state_machine_as_test(differential.machine_for(differential.GroupsMachine, adapter_name, adapter),
                                      settings=QUICK)
        except AssertionError:
            pass
        return time.perf_counter() - started
    finally:
        adapter.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--hypothesis-shrink", action="store_true",
                        help="also time Hypothesis's own shrinker on the same failing machine (in process, ~1 min)")
    args = parser.parse_args()
    model = served()
    scenarios = [load_scenario(path) for path in scenario_files([fixtures.SCENARIOS])]
    inside, outside = best(args.rounds, lambda: scenarios_seconds("reference", scenarios),
                           lambda: scenarios_seconds(model, scenarios))
    print(f"scenarios ({len(scenarios)}): in process {inside:.2f} s, served over JSON lines {outside:.2f} s, "
          f"ratio {outside / inside:.2f}x")
    with tempfile.TemporaryDirectory(prefix="mqconf-bench-") as folder:
        runs = iter(range(1_000_000))
        inside, outside = best(args.rounds,
                               lambda: run_seconds("reference", Path(folder) / f"in-{next(runs)}"),
                               lambda: run_seconds(model, Path(folder) / f"out-{next(runs)}"))
    print(f"mqconf run --no-campaign (quick profile): in process {inside:.1f} s, served over JSON lines "
          f"{outside:.1f} s, ratio {outside / inside:.2f}x (target: at most 3x)")
    with tempfile.TemporaryDirectory(prefix="mqconf-bench-") as folder:
        import os

        os.environ["MQCONF_REPORTS"] = folder
        figures = failing_machine(served("--adapter", MUTANT))
        print(f"failing machine (groups, {MUTANT} served over JSON lines): found in {figures['detect']:.2f} s; "
              f"shrunk in {figures['shrink']:.2f} s (target: under 30 s), {figures['before']} -> {figures['after']} "
              f"calls in {figures['replays']} live replays")
        if args.hypothesis_shrink:
            seconds = hypothesis_shrink(MUTANT)
            print(f"  the same machine with Hypothesis's own shrinker, in process: {seconds:.1f} s in all")


if __name__ == "__main__":
    main()
