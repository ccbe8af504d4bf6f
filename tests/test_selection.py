"""Message selectors (reference/selection.py): the grammar lark parses and the logic of three values, on values the
scenarios under fixtures/scenarios/properties do not each spell out."""

from __future__ import annotations

import pytest

from mq_conformance.reference.selection import SelectorSyntaxError, evaluate, names_in, parse

PROPS = {"Color": "red", "size": 12, "ratio": 0.5, "flag": True, "nothing": None, "code": "50%_x"}


def value(text: str):
    return evaluate(parse(text), PROPS.get)


@pytest.mark.parametrize(("text", "expected"), [
    ("Color = 'red'", True), ("Color <> 'red'", False), ("size = 12.0", True), ("size >= 12 AND size < 13", True),
    ("size + 1 = 13", True), ("-size = -12", True), ("size / 5 = 2.4", True), ("size * ratio = 6", True),
    ("flag = TRUE", True), ("flag", True), ("NOT flag", False),
    # NULL (an absent property) is unknown; AND and OR absorb it as SQL does
    ("missing = 1", None), ("NOT (missing = 1)", None), ("missing = 1 AND size = 1", False),
    ("missing = 1 OR size = 12", True), ("missing = 1 OR size = 1", None), ("missing IS NULL", True),
    ("nothing IS NULL", True), ("Color IS NOT NULL", True), ("missing + 1 = 2", None),
    # values of different types compare unequal; strings and booleans only for = and <>
    ("Color = 12", False), ("size = '12'", False), ("Color < 's'", False), ("NOT (Color = 12)", True),
    ("size BETWEEN 12 AND 12", True), ("size NOT BETWEEN 1 AND 11", True), ("missing BETWEEN 1 AND 2", None),
    ("Color IN ('blue', 'red')", True), ("Color NOT IN ('red')", False), ("missing IN ('a')", None), ("size IN ('12')", False),
    ("Color LIKE 'r%'", True), ("Color LIKE '_ed'", True), ("Color LIKE 'R%'", False), ("missing LIKE '%'", None),
    ("code LIKE '50!%!_x' ESCAPE '!'", True), ("code LIKE '50!%' ESCAPE '!'", False), ("code NOT LIKE '5%'", False),
    ("0x10 = 16 AND 017 = 15 AND 7. = 7 AND 1e2 = 100 AND 12L = 12", True), ("'it''s' = 'it''s'", True),
    ("Color = 'red' or Color = 'blue' and size = 0", True),  # AND before OR
])
def test_selector_values_follow_sql_logic_of_three_values(text, expected):
    assert value(text) is expected


@pytest.mark.parametrize("text", [
    "", "Color = 'red", 'Color = "red"', "size >", "size = 09", "AND = 1", "(size = 1", "size = 1)",
    "Color LIKE 'a' ESCAPE '!!'", "Color LIKE 'a!' ESCAPE '!'", "12 IN ('a')", "size BETWEEN 1", "Color ==  'x'",
])
def test_malformed_selectors_are_syntax_errors(text):
    with pytest.raises(SelectorSyntaxError):
        parse(text)


def test_names_in_lists_every_property_a_selector_reads():
    assert sorted(names_in(parse("a = 1 AND (b.c LIKE 'x' OR NOT d IS NULL) AND e BETWEEN f AND 3"))) == [
        "a", "b.c", "d", "e", "f"]
    assert names_in(parse("1 = 1")) == []
