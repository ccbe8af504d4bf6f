"""Campaign throughput (a benchmark, not a test): the same N sequences replayed in process without Spark, on
Spark local[1] and on Spark local[2]; sequences per second, the ratios, and Spark's per-sequence overhead.

    .venv/bin/python benchmarks/campaign.py [--sequences N] [--length L]

Target (on 2 cores, N=100000, L=20): local[2] at least 1.6x the in-process single-core loop, and Spark's
per-sequence overhead (local[1] against in process, both on one core) under 10% of the replay cost. Each Spark
figure excludes session start-up and is measured after a small warm-up campaign, as a long campaign would see.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conformance.campaign.run import CampaignConfig, run_campaign  # noqa: E402


def measure(config: CampaignConfig, master: str, folder: Path, spark=None) -> float:
    started = time.perf_counter()
    summary = run_campaign(config, folder, campaign_id=master.replace("[", "-").replace("]", ""), master=master,
                           spark=spark, show_progress=False)
    elapsed = time.perf_counter() - started
    assert summary["aggregates"]["sequences"] == config.sequences
    return config.sequences / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=int, default=100_000)
    parser.add_argument("--length", type=int, default=20)
    args = parser.parse_args()
    config = CampaignConfig(adapter="reference", sequences=args.sequences, length=args.length, seed=1)
    warm = CampaignConfig(adapter="reference", sequences=32, length=args.length, seed=2, partition_size=8)
    rates: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        rates["in process"] = measure(config, "inprocess", Path(tmp) / "inprocess")
        from conformance.campaign.spark import session

        for master in ("local[1]", "local[2]"):
            spark = session(master)
            measure(warm, master, Path(tmp) / "warm", spark)
            rates[master] = measure(config, master, Path(tmp) / "spark", spark)
            spark.stop()
    print(f"campaign benchmark: {args.sequences} sequences of length {args.length}, seed 1")
    for name, rate in rates.items():
        print(f"  {name:<11} {rate:10.1f} sequences/s")
    base = rates["in process"]
    print(f"  local[1] / in process: {rates['local[1]'] / base:.2f}x")
    print(f"  local[2] / in process: {rates['local[2]'] / base:.2f}x   (target >= 1.6x on 2 cores)")
    print(f"  local[2] / local[1]:   {rates['local[2]'] / rates['local[1]']:.2f}x")
    overhead = (1 / rates["local[1]"] - 1 / base) / (1 / base)
    print(f"  Spark per-sequence overhead (local[1] vs in process): {overhead:.1%} of the replay cost "
          f"(target < 10%)")


if __name__ == "__main__":
    main()
