"""Campaign throughput (a benchmark, not a test), every figure from one run:

- the campaign in process: calls (steps) per second with everything a campaign does - generation, the model
  and the adapter, comparison, symbolisation, the step records and Parquet;
- the same sequences replayed with nothing recorded or compared (each call run on both sides, identifiers
  bound as the replay binds them), and the ratio: what recording and comparison add (target: at most 1.5x).
  The campaign's time includes generating its sequences, the bare replay's does not (it is given them): the
  line after the ratio says how much of it that is. Each is the faster of two alternating runs;
- Spark local[2] against in process (target >= 1.6x on 2 cores; session start-up excluded, after a warm-up).

    .venv/bin/python benchmarks/campaign.py [--sequences N] [--spark-sequences M] [--length L] [--no-spark]

The defaults keep `make bench` short (2,000 sequences in process, 20,000 on Spark); the figure the README
quotes used --spark-sequences 100000 (about 20 minutes).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mq_conformance.adapters.base import load  # noqa: E402
from mq_conformance.adapters.reference import ReferenceAdapter  # noqa: E402
from mq_conformance.conformance.campaign import generate  # noqa: E402
from mq_conformance.conformance.campaign.run import CampaignConfig, run_campaign  # noqa: E402
from mq_conformance.reference.calls import Call  # noqa: E402


def measure(config: CampaignConfig, master: str, folder: Path, spark=None) -> tuple[float, dict]:
    started = time.perf_counter()
    summary = run_campaign(config, folder, campaign_id=master.replace("[", "-").replace("]", ""), master=master,
                           spark=spark, show_progress=False)
    elapsed = time.perf_counter() - started
    assert summary["aggregates"]["sequences"] == config.sequences
    return elapsed, summary


def stored_sequences(folder: Path, summary: dict, config: CampaignConfig) -> list[dict]:
    """The campaign's own sequences, rebuilt from their indexes and the rows they were steered at."""
    import pyarrow.dataset as ds

    table = ds.dataset(folder / summary["campaign"] / "steps", format="parquet", partitioning="hive")
    targets = dict(zip(*(table.to_table(columns=["seq", "target"]).column(c).to_pylist() for c in ("seq", "target"))))
    return [generate.sequence(config.seed, i, config.length, config.areas, targets.get(i))
            for i in range(config.sequences)]


def _resolve(value, bound):
    if isinstance(value, str) and value.startswith("$"):
        return bound.get(value, {"hex": "ff" * 16})
    if isinstance(value, dict):
        return {k: _resolve(v, bound) for k, v in value.items()}
    if isinstance(value, list):
        return [_resolve(v, bound) for v in value]
    return value


def bare_replay(sequences: list[dict], model, impl) -> tuple[float, int]:
    """Each sequence's calls on both sides with nothing recorded or compared: the floor of a campaign."""
    steps = 0
    started = time.perf_counter()
    for sequence in sequences:
        model.reset()
        impl.reset()
        sides = ((model, {}), (impl, {}))
        binds = sequence.get("binds") or []
        for index, raw in enumerate(sequence["calls"]):
            op = raw["op"]
            args = {k: v for k, v in raw.items() if k != "op"}
            for adapter, bound in sides:
                outcome = adapter.execute(Call(op, _resolve(args, bound)))
                for variable, path in (binds[index] if index < len(binds) else {}).items():
                    head, _, name = path.partition(".")
                    value = (getattr(outcome, head, None) or {}).get(name)
                    if isinstance(value, str) and not value.endswith("_NONE"):
                        bound[variable] = {"hex": value}
            steps += 1
    return time.perf_counter() - started, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=2_000)
    parser.add_argument("--spark-sequences", type=int, default=20_000)
    parser.add_argument("--length", type=int, default=20)
    parser.add_argument("--no-spark", action="store_true")
    args = parser.parse_args()
    config = CampaignConfig(adapter="reference", sequences=args.sequences, length=args.length, seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        # The campaign and the bare replay alternate, twice, and each figure is the faster of its two runs: one
        # run of either can lose a second to another process on a shared machine, and the first campaign run
        # also pays the process's one-time imports (Arrow's Parquet and compute modules).
        campaigns, bares = [], []
        for attempt in range(2):
            folder = Path(tmp) / f"inprocess-{attempt}"
            campaigns.append(measure(config, "inprocess", folder))
            if attempt == 0:
                started = time.perf_counter()
                sequences = stored_sequences(folder, campaigns[0][1], config)
                generating = time.perf_counter() - started
            bares.append(bare_replay(sequences, ReferenceAdapter(), load("reference")))
        campaign_seconds, summary = min(campaigns, key=lambda run: run[0])
        bare_seconds, bare_steps = min(bares)
        steps = summary["aggregates"]["steps"]
        print(f"campaign benchmark: {args.sequences} sequences of length {args.length}, seed 1, every area "
              f"(each figure the faster of 2 runs)")
        print(f"  campaign in process:              {steps / campaign_seconds:10,.0f} steps/s "
              f"({args.sequences / campaign_seconds:,.0f} sequences/s)")
        print(f"  the same, nothing recorded/compared:{bare_steps / bare_seconds:8,.0f} steps/s")
        print(f"  recording and comparison cost:    {campaign_seconds / bare_seconds:10.2f}x the bare replay "
              f"(target <= 1.5x)")
        print(f"  of which generating the sequences: {generating / bare_seconds:9.2f}x (the campaign generates; "
              f"the bare replay is given them)")
        if args.no_spark:
            return
        from mq_conformance.conformance.campaign.spark import session

        spark_config = CampaignConfig(adapter="reference", sequences=args.spark_sequences, length=args.length, seed=3)
        warm = CampaignConfig(adapter="reference", sequences=32, length=args.length, seed=2, partition_size=8)
        in_process, _ = measure(spark_config, "inprocess", Path(tmp) / "spark-base")
        spark = session("local[2]")
        try:
            measure(warm, "local[2]", Path(tmp) / "warm", spark)
            on_spark, _ = measure(spark_config, "local[2]", Path(tmp) / "spark", spark)
        finally:
            spark.stop()
        print(f"  {args.spark_sequences} sequences: in process {args.spark_sequences / in_process:,.0f}/s, "
              f"local[2] {args.spark_sequences / on_spark:,.0f}/s")
        print(f"  local[2] / in process:            {in_process / on_spark:10.2f}x (target >= 1.6x on 2 cores)")


if __name__ == "__main__":
    main()
