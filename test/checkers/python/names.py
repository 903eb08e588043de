# One style for every finding (issue 27): the Python front end names a
# buffer as the user wrote it -- the variable (or the element) that holds
# the copy where there is one -- and an expression with no name shortly,
# as the C++ check does (test/checkers/message-style.cpp): at most 40
# characters, the calls' arguments elided, then cut at an attribute with
# "...".
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import torch


def use(x):
    print(x)


def named(b):
    temp = b.to("cpu", non_blocking=True)
    use(temp)
    # CHECK: names.py:[[@LINE-1]]:9: warning: 'temp' is passed to 'use' before the asynchronous device-to-host copy into it is known to be complete
    # CHECK: names.py:[[@LINE-3]]:12: note: asynchronous device-to-host copy into 'temp' on the current stream is issued here


def seed(b, a):
    a[:] = b.to("cpu", non_blocking=True)
    # CHECK: names.py:[[@LINE-1]]:12: warning: 'b.to("cpu", non_blocking=True)' is read before
    # CHECK: names.py:[[@LINE-2]]:12: note: asynchronous device-to-host copy into 'b.to("cpu", non_blocking=True)' on the current stream is issued here


def element_of_temporary(b):
    use(b.to("cpu", non_blocking=True)[0])
    # CHECK: names.py:[[@LINE-1]]:9: warning: 'b.to("cpu", non_blocking=True)[0]' is passed to 'use' before


def long_temporary(outputs):
    return outputs.logits.detach().float().to(device="cpu", non_blocking=True).sum()
    # CHECK: names.py:[[@LINE-1]]:12: warning: 'outputs.logits.detach().float().to(...)' is read before
    # CHECK: names.py:[[@LINE-2]]:12: note: asynchronous device-to-host copy into 'outputs.logits.detach().float().to(...)' on the current stream


def longer_temporary(model_outputs_with_long_name):
    return model_outputs_with_long_name.logits.detach().float().to("cpu", non_blocking=True).sum()
    # CHECK: names.py:[[@LINE-1]]:12: warning: 'model_outputs_with_long_name.logits...' is read before
    # CHECK: names.py:[[@LINE-2]]:12: note: asynchronous device-to-host copy into 'model_outputs_with_long_name.logits...' on the current stream


def held_by_an_element(b, cache):
    cache["k"] = b.to("cpu", non_blocking=True)
    print(cache["k"])
    # CHECK: names.py:[[@LINE-1]]:11: warning: 'cache["k"]' is passed to 'print' before
    # CHECK: names.py:[[@LINE-3]]:18: note: asynchronous device-to-host copy into 'cache["k"]' on the current stream is issued here


def multi_line(b):
    use(b
        .float()
        .to("cpu", non_blocking=True))
    # CHECK: names.py:[[@LINE-3]]:9: warning: 'b.float().to("cpu", non_blocking=True)' is passed to 'use' before
