"""``fixtures/constants.json``: the model's MQ constants as data, for implementers in any language.

The values are those of ``reference/constants.py`` (checked against IBM's C header in tests/test_constants.py);
this module writes them as JSON, and tests/test_implementers_guide.py checks that the file is in step with the
model. Regenerate it after changing the constants::

    .venv/bin/python -m mq_conformance.conformance.constants_json            # writes fixtures/constants.json
    .venv/bin/python -m mq_conformance.conformance.constants_json --check    # exit 1 if the file is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mq_conformance import fixtures
from mq_conformance.reference import constants

TARGET = fixtures.ROOT / "constants.json"


def build() -> dict[str, Any]:
    """The constants as a JSON document: every name's value, the canonical name of each value per family (how
    outcomes spell enumerations), the single-bit flags of each option family (how outcomes spell option lists),
    the byte-string "none" values and the format names."""
    return {
        "about": "IBM MQ constants as the mq-conformance suite uses them (values of IBM's cmqc.h). Generated from "
                 "reference/constants.py by `python -m mq_conformance.conformance.constants_json`; do not edit by hand.",
        "values": dict(sorted(constants.VALUES.items())),
        "canonical_names": {family: {str(number): name for number, name in sorted(names.items())}
                            for family, names in sorted(constants.NAMES.items())},
        "option_families": list(constants.OPTION_FAMILIES),
        "flags": {family: dict(sorted(flags.items(), key=lambda item: item[1]))
                  for family, flags in constants.FLAGS.items()},
        "subfields": {family: [list(names) for names in groups] for family, groups in constants.SUBFIELDS.items()},
        "bytes": {name: raw.hex() for name, raw in sorted(constants.BYTES.items())},
        "formats": dict(sorted(constants.FORMATS.items())),
    }


def render() -> str:
    return json.dumps(build(), indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write (or check) fixtures/constants.json from the model.")
    parser.add_argument("--check", action="store_true", help="only check that the file is in step (exit 1 if not)")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is out of step with reference/constants.py: run python -m mq_conformance.conformance.constants_json")
            return 1
        print(f"{TARGET} is in step")
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET} ({len(text):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
