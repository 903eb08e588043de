# Suppressions: NOLINT, NOLINT(cuda-async-read-before-sync), NOLINTNEXTLINE,
# and flake8's noqa (bare, or with this check's code CAR001); NOLINT for
# another check and noqa for another code do not suppress it.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def suppressed(b):
    t1 = b.to("cpu", non_blocking=True)
    print(t1)  # NOLINT
    t2 = b.to("cpu", non_blocking=True)
    print(t2)  # NOLINT(cuda-async-read-before-sync)
    t3 = b.to("cpu", non_blocking=True)
    # NOLINTNEXTLINE(cuda-async-read-before-sync)
    print(t3)
    t4 = b.to("cpu", non_blocking=True)
    print(t4)  # noqa: CAR001
    t5 = b.to("cpu", non_blocking=True)
    print(t5)  # noqa


def not_suppressed(b):
    t1 = b.to("cpu", non_blocking=True)
    print(t1)  # NOLINT(bugprone-use-after-move)
    # CHECK: suppress.py:[[@LINE-1]]:11: warning: 't1' is passed to 'print' before
    t2 = b.to("cpu", non_blocking=True)
    print(t2)  # noqa: E501
    # CHECK: suppress.py:[[@LINE-1]]:11: warning: 't2' is passed to 'print' before
