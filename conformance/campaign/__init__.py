"""The campaign: very many call sequences, generated from (seed, index) or loaded from a corpus, replayed on the
reference model and an adapter (on Spark executors, or in process), stored as Parquet and aggregated into
clause coverage and divergence signatures with witness scenarios. See conformance/campaign/run.py."""
