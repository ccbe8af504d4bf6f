"""Shared fixtures: the adapter under test (``--adapter NAME``, default the reference model)."""

from __future__ import annotations

import pytest

from adapters.base import Adapter, load


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--adapter", default="reference", help="adapter under test (name or module:factory)")


@pytest.fixture
def adapter(request: pytest.FixtureRequest) -> Adapter:
    """A fresh adapter under test for each test."""
    instance = load(request.config.getoption("--adapter"))
    instance.reset()
    yield instance
    instance.close()
