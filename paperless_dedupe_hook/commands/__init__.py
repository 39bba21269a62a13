"""The ``paperless-dedupe`` command line: a thin layer over the application modules.

``cli`` parses arguments and dispatches; each command that is more than a few lines has
its own module (doctor, tune, evaluate, report, maintenance), imported only when run.
"""
