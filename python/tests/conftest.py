# pytester runs pytest sessions of its own inside these tests (options, xdist, a missing Node).
pytest_plugins = ["pytester"]
