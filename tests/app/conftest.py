"""The AppTest fixtures of test_app (a warm working folder, a fresh environment), shared with
the other app test modules so the warm folder is trained once for all of them."""

from tests.app.test_app import app_env, warm_workdir  # noqa: F401
