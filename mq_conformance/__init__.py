"""mq-conformance: an executable reference model of IBM MQ's documented behaviour and a conformance suite.

The one import name the suite installs. Its subpackages are the repository's top-level folders, mapped here by
``pyproject.toml`` (``[tool.setuptools] package-dir``): ``mq_conformance.reference`` (the model),
``mq_conformance.adapters`` (executors of the call language), ``mq_conformance.conformance`` (the suite and its
tools) and ``mq_conformance.fixtures`` (the specification as data).
"""

# The four subpackages, lowest layer first: conformance -> adapters -> reference, fixtures is data.
SUBPACKAGES = ("reference", "adapters", "conformance", "fixtures")
