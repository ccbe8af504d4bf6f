"""mq-conformance: an executable reference model of IBM MQ's documented behaviour and a conformance suite.

The one import name the suite installs. Its subpackages are the repository's top-level folders, mapped here by
``pyproject.toml`` (``[tool.setuptools] package-dir``): ``mq_conformance.reference`` (the model),
``mq_conformance.adapters`` (executors of the call language), ``mq_conformance.emulator`` (a local IBM MQ over the
model, for applications), ``mq_conformance.conformance`` (the suite and its tools) and ``mq_conformance.fixtures``
(the specification as data).
"""

# The five subpackages, lowest layer first: conformance -> adapters -> emulator -> reference, fixtures is data.
SUBPACKAGES = ("reference", "emulator", "adapters", "conformance", "fixtures")
