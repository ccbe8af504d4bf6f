"""``mqconf campaign``: the command's arguments and what it prints (conformance/cli.py only wires it in)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from mq_conformance.adapters.base import AdapterError, load
from mq_conformance.adapters.capabilities import needed_by_calls
from mq_conformance.adapters.untrusted import for_terminal

from ..vocabulary import AREAS as VOCABULARY
from .generate import AREAS
from .store import join, shown

EXIT_OK, EXIT_DIVERGED, EXIT_USAGE = 0, 1, 2
# The capabilities (fixtures/capabilities.yaml) each generated area's calls need, as the vocabulary declares
# them (conformance/vocabulary.py; tests/test_vocabulary.py checks them against the calls each area makes).
# An area runs only when the adapter claims all of them.
AREA_NEEDS = {name: tuple(sorted(area.capabilities)) for name, area in VOCABULARY.items()}


def claimed_areas(areas, claimed) -> list[str]:
    """The ``areas`` whose needed capabilities are all in ``claimed``."""
    return [a for a in areas if set(AREA_NEEDS.get(a, (a,))) <= set(claimed)]


def add_parser(commands) -> None:
    """The ``campaign`` subcommand."""
    campaign = commands.add_parser(
        "campaign", help="replay very many generated (or recorded) call sequences on Spark and aggregate them")
    campaign.add_argument("--adapter", default="reference", help="adapter under test (name, mutant:..., module:factory)")
    campaign.add_argument("--sequences", type=int, default=1000, help="how many sequences to generate (default 1000)")
    campaign.add_argument("--length", type=int, default=20, help="calls per generated sequence (default 20)")
    campaign.add_argument("--seed", type=int, default=0, help="the campaign's seed: sequence i comes from (seed, i)")
    campaign.add_argument("--areas", nargs="+", default=list(AREAS), choices=AREAS,
                          help="vocabulary areas to draw from (default: all whose capabilities the adapter claims)")
    campaign.add_argument("--master", default="local[*]",
                          help="Spark master URL (default local[*]); 'inprocess' runs without Spark")
    campaign.add_argument("--corpus", type=Path, help="replay a corpus (JSON lines, Parquet or scenario files) "
                                                      "instead of generating sequences")
    campaign.add_argument("--output", default=str(Path("reports") / "campaigns"),
                          help="campaigns folder: a local path or a URI pyarrow reaches, such as file:///shared/campaigns, "
                               "hdfs://namenode/campaigns or s3://bucket/campaigns (default reports/campaigns)")
    campaign.add_argument("--id", dest="campaign_id",
                          help="campaign id (default: from the settings, so re-running the command resumes it)")
    campaign.add_argument("--ship", action="store_true", default=None,
                          help="ship the suite's code to the executors as a zip even on a master of this machine "
                               "(it is shipped to every other master: the cluster needs only Python with pyarrow and "
                               "pyyaml)")
    campaign.add_argument("--partition-size", type=int, default=0, help="sequences per partition (default: chosen)")
    campaign.add_argument("--expectations", type=Path,
                          help="YAML file of this implementation's expected failures: a listed signature is an "
                               "expected divergence, one not found is 'not seen this run' (a campaign is a random "
                               "search); the exit status is 1 only for divergences not listed")


def claimed_sequences(corpus: list[dict], claimed, adapter: str) -> list[dict]:
    """The corpus sequences whose calls need only capabilities ``adapter`` claims; one line says how many are
    left out and why. None left is a :class:`~.corpus.CorpusError`."""
    from .corpus import CorpusError

    kept, unclaimed = [], set()
    for sequence in corpus:
        missing = needed_by_calls(sequence.get("calls", [])) - set(claimed)
        if missing:
            unclaimed |= missing
        else:
            kept.append(sequence)
    if len(kept) < len(corpus):
        print(f"corpus: {len(corpus) - len(kept)} of {len(corpus)} sequences need capabilities {adapter} does not "
              f"claim ({', '.join(sorted(unclaimed))}), not run")
    if not kept:
        raise CorpusError(f"no sequence of the corpus needs only capabilities {adapter} claims")
    return kept


def main(args: argparse.Namespace) -> int:
    """Run the campaign; print where its results are and its divergences. 1 when it found divergences."""
    from ..pytest_plugin import load_expectations
    from ..report import ReportError
    from .corpus import CorpusError, load_corpus
    from .run import CampaignConfig, CampaignError, run_campaign
    from .store import require

    expectations = getattr(args, "expectations", None)
    try:  # before anything runs: a bad file costs nothing
        expected = load_expectations(expectations) if expectations else []
    except Exception as exc:  # pytest.UsageError: one line naming the file and line
        raise ReportError(str(exc)) from None
    try:
        require("pyarrow", "mqconf campaign (it stores every campaign as Parquet)")
        if args.master != "inprocess":
            require("pyspark", f"mqconf campaign on Spark (--master {args.master})")
        corpus = None
        if args.corpus is not None:
            corpus = load_corpus(args.corpus)
        from ..identity import command_line
        from .run import campaign_identity

        adapter = load(args.adapter)
        claimed = adapter.capabilities
        identity = campaign_identity(adapter, command_line(getattr(args, "argv", ["campaign"])))
        areas = claimed_areas(args.areas, claimed)
        if corpus is not None:
            corpus = claimed_sequences(corpus, claimed, args.adapter)
        if not areas and corpus is None:
            print(f"mqconf: adapter {args.adapter} claims the capabilities of none of the areas "
                  f"{', '.join(args.areas)}", file=sys.stderr)
            return EXIT_USAGE
        for area in sorted(set(args.areas) - set(areas)):
            needs = ", ".join(AREA_NEEDS.get(area, (area,)))
            print(f"area {area}: not claimed by {args.adapter} (needs {needs}), not run")
        config = CampaignConfig(
            adapter=args.adapter, sequences=len(corpus) if corpus is not None else args.sequences,
            length=args.length, seed=args.seed, areas=tuple(areas or args.areas),
            partition_size=args.partition_size, corpus=str(args.corpus) if corpus is not None else None,
            corpus_digest=_digest(corpus))
        summary = run_campaign(config, args.output, args.campaign_id, args.master, corpus=corpus,
                               ship_suite=args.ship, identity=identity)
    except (CampaignError, CorpusError, AdapterError) as exc:
        print(f"mqconf: {for_terminal(exc, 2000)}", file=sys.stderr)
        return EXIT_USAGE
    unlisted = print_summary(summary, expected)
    return EXIT_DIVERGED if unlisted else EXIT_OK


def _digest(corpus) -> str | None:
    if corpus is None:
        return None
    import hashlib

    return hashlib.sha1(json.dumps(corpus, sort_keys=True).encode()).hexdigest()[:16]


def print_summary(summary: dict, expectations: list[dict] | None = None) -> int:
    """What the campaign found, judged by the implementation's ``expectations`` (report.judge_signatures): a
    listed signature is an expected divergence with its reason, a listed one not found is not seen this run.
    Returns how many signatures are not listed."""
    from ..report import judge_signatures

    a, run = summary["aggregates"], summary["run"]
    listed, unseen = judge_signatures(a["signatures"], expectations or [])
    cov = a["coverage"]
    print(f"campaign {summary['campaign']} ({run['master']}): {a['sequences']} sequences, {a['steps']} calls, "
          f"{a['divergent_sequences']} divergent; partitions {run['partitions_run']} run, "
          f"{run['partitions_skipped']} already done; {run['seconds']} s")
    print(f"coverage: {cov['clauses_applied']}/{cov['clauses_total']} clauses applied, "
          f"{cov['table_rows_covered']}/{cov['table_rows_total']} table rows")
    for table_id, table in a["table_rows"].items():
        # one line per table and reason: a table's rows unreachable by construction are one count, not 63 lines
        by_reason: dict[str, list[str]] = {}
        for row, why in table.get("unreached", {}).items():
            by_reason.setdefault(why, []).append(row)
        for why, rows in by_reason.items():
            shown_rows = rows[0] if len(rows) == 1 else f"{len(rows)} rows of {table_id} ({rows[0]}, ...)"
            print(f"  unreached {shown_rows}: {why}")
    for signature in a["signatures"]:
        reason = listed.get(signature["slug"])
        print(f"{'DIVERGENCE' if reason is None else 'EXPECTED DIVERGENCE'} x{signature['count']}: "
              f"{signature['op']} [{signature['options'] or 'no options'}] "
              f"in {signature.get('fields') or 'its outcome'}: model {signature['model_reason']}, implementation "
              f"{for_terminal(signature['impl_reason'], 300)} ({signature['slug']})")
        if reason is not None:
            print(f"  listed by the implementation: {for_terminal(reason, 300)}")
        print(f"  witness ({signature['witness']['length']} calls): {summary['witnesses'][signature['slug']]}")
    for entry in unseen:
        print(f"NOT SEEN THIS RUN {entry['signature']}: {for_terminal(entry.get('reason', ''), 300)} (listed; this "
              "campaign did not find it)")
    if expectations:
        print(f"signatures: {len(a['signatures']) - len(listed)} not listed, {len(listed)} expected, "
              f"{len(unseen)} listed and not seen this run")
    print(f"summary: {shown(join(summary['directory'], 'summary.json'))}")
    return len(a["signatures"]) - len(listed)
