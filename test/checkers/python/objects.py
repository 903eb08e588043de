# Objects that hold copies (objects.py): a construction of a class of the
# project carries its arguments' copies into the fields they initialise
# (dataclass and NamedTuple fields in order, `self.f = p` in __init__,
# dataclasses.replace); a class's own .to() runs instead of Tensor.to; a field
# of an object of unseen class made pending by .to(cpu, non_blocking=True) is
# read where it is used as only a tensor is; nn.Module.to moves the module in
# place. Each race beside its fixed or harmless twin.
#
# RUN: %cars_python %s | FileCheck %s --implicit-check-not='warning:'
import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

import torch


@dataclass
class Batch:
    x: torch.Tensor
    y: torch.Tensor

    def to(self, device, non_blocking=False):
        return Batch(self.x.to(device, non_blocking=non_blocking),
                     self.y.to(device, non_blocking=non_blocking))


class Pair:
    def __init__(self, a, b):
        self.a = a
        self.b = b


class Scores(NamedTuple):
    top: torch.Tensor
    count: int


@dataclass
class Out:
    logits: torch.Tensor
    n: int

    def cpu_async(self):
        return dataclasses.replace(self, logits=self.logits.to("cpu", non_blocking=True))


class Dynamic:
    def __init__(self, **fields):
        self.fields = fields

    def to(self, device, non_blocking=False):
        return Dynamic(**{k: v.to(device, non_blocking=non_blocking) for k, v in self.fields.items()})


def dataclass_fields(x, y):
    h = Batch(x.to("cpu", non_blocking=True), y.to("cpu", non_blocking=True))
    return h.x.numpy().sum()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'h.x' is read before
    # CHECK: objects.py:[[@LINE-3]]:15: note: asynchronous device-to-host copy into 'h.x' on the current stream is issued here


def dataclass_fields_synced(x, y):
    h = Batch(x.to("cpu", non_blocking=True), y.to("cpu", non_blocking=True))
    torch.cuda.synchronize()
    return h.x.numpy().sum()


def init_fields(x, y):
    p = Pair(x.to("cpu", non_blocking=True), y)
    return p.a.tolist()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'p.a' is read before


def init_other_field(x, y):
    p = Pair(x.to("cpu", non_blocking=True), y)
    return p.b.tolist()  # b was not copied: not claimed


def named_tuple(x):
    s = Scores(count=3, top=x.to("cpu", non_blocking=True))
    print(s.count)
    return s.top.sum()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 's.top' is read before


def own_to(x, y):
    b = Batch(x, y)
    h = b.to("cpu", non_blocking=True)  # Batch.to runs, field by field
    return h.y.sum()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'h.y' is read before
    # CHECK: objects.py:24:22: note: asynchronous device-to-host copy into 'h.y' on the current stream is issued here


def own_to_synced(x, y):
    b = Batch(x, y)
    h = b.to("cpu", non_blocking=True)
    torch.cuda.current_stream().synchronize()
    return h.y.sum()


def own_to_blocking(b: Batch):
    h = b.to("cpu")  # non_blocking defaults to False in Batch.to
    return h.y.sum()


def own_to_dynamic(x):
    d = Dynamic(x=x)
    h = d.to("cpu", non_blocking=True)  # nothing followed: taken as Tensor.to
    return h.fields["x"].sum()  # a tensor use of a field of it
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'h' is read before


def replace_field(o: Out):
    h = o.cpu_async()
    print(h.n + 1)  # the other field: not copied
    return h.logits.tolist()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'h.logits' is read before


def consume(p):
    return p.a.sum()


def handed_to_function(x, y):
    p = Pair(x.to("cpu", non_blocking=True), y)
    return consume(p)
    # CHECK: objects.py:[[@LINE-1]]:20: warning: 'p' is passed to 'consume' before
    # CHECK: objects.py:[[@LINE-7]]:12: note: 'consume' reads it here


def handed_to_function_synced(x, y):
    p = Pair(x.to("cpu", non_blocking=True), y)
    torch.cuda.synchronize()
    return consume(p)


def stored_object(x, y, queue):
    p = Pair(x.to("cpu", non_blocking=True), y)
    queue.put(p)  # the object itself: stored, not read
    log(p)
    torch.cuda.synchronize()


def unseen_class(td):
    h = td.to("cpu", non_blocking=True)  # a TensorDict, a PyG Data
    print(h.batch_size, h.names.index("a"))  # not tensors: not claimed
    return torch.cat([h.a, h.b])
    # CHECK: objects.py:[[@LINE-1]]:22: warning: 'h' is passed to 'cat' before


def unseen_class_synced(td):
    h = td.to("cpu", non_blocking=True)
    torch.cuda.synchronize()
    return h.a.sum() + torch.cat([h.a, h.b]).sum()


def module_in_place(model: torch.nn.Module):
    model.to("cpu", non_blocking=True)
    return model.weight.sum()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'model.weight' is read before
    # CHECK: objects.py:[[@LINE-3]]:5: note: asynchronous device-to-host copy into 'model' on the current stream is issued here


def module_forward(model):
    model.to("cpu", non_blocking=True)
    return model(torch.ones(3))
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'model' is called before


def module_parameters(model):
    model.to("cpu", non_blocking=True)
    return [p.sum() for p in model.parameters()]
    # CHECK: objects.py:[[@LINE-1]]:13: warning: 'p' is read before


def module_state_dict(model, path):
    model.to("cpu", non_blocking=True)
    torch.save(model.state_dict(), path)
    # CHECK: objects.py:[[@LINE-1]]:16: warning: 'model' is passed to 'save' before


def module_synced(model: torch.nn.Module, path):
    model.to("cpu", non_blocking=True)
    model.eval()  # no tensor data
    for name, p in model.named_parameters():
        print(name, p.shape)  # metadata
    torch.cuda.synchronize()
    torch.save(model.state_dict(), path)
    return model(torch.ones(3))


def module_blocking(model):
    model.to("cpu")
    return model(torch.ones(3))


def gpu_tensor_discarded():
    t = torch.ones(4, device="cuda")
    t.to("cpu", non_blocking=True)  # a tensor's .to is not in place: t stays on the GPU
    return t.sum()


def log(p):
    print(p.b)


def module_element(model):
    model.to("cpu", non_blocking=True)
    return model.weight[0, 0].item()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'model' is read before


def module_moved_back(model, x):
    model.to("cpu", non_blocking=True)
    model.to("cuda")  # in place again: its copy back is ordered after the move
    return model(x) + model.weight.sum()


def submodule_in_place(net):
    net.encoder.to("cpu", non_blocking=True)
    return net.encoder[0].weight.sum()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'net.encoder' is read before


class Mirror:
    def __init__(self, t):
        self.data = t.to("cpu", non_blocking=True)  # the copy in __init__
        self.shape = tuple(t.shape)

    def move(self):
        self.data = self.data.to("cpu", non_blocking=True)  # x = x.to(...): x's kind before is not told
        return self.data.sum()
        # CHECK: objects.py:[[@LINE-1]]:16: warning: 'self.data' is read before


def init_copies(t):
    m = Mirror(t)
    print(m.shape)
    return m.data.sum()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'm.data' is read before
    # CHECK: objects.py:[[@LINE-14]]:21: note: asynchronous device-to-host copy into 'm.data' on the current stream is issued here


def init_copies_synced(t):
    m = Mirror(t)
    torch.cuda.synchronize()
    return m.data.sum()


def fetch_pair(a, b):
    return a.to("cpu", non_blocking=True), b.shape


def tuple_returned(a, b):
    h, shape = fetch_pair(a, b)
    print(shape)
    return h.sum()  # a miss: the positions of a returned tuple are not followed


def offload_into(box, t):
    box.y = t.to("cpu", non_blocking=True)


def stored_on_argument(t):
    box = Pair(None, None)
    offload_into(box, t)
    return box.y.t().sum()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'box.y' is read before


def stored_on_local(obj, t):
    obj.y = t.to("cpu", non_blocking=True)
    obj.y.sum()
    # CHECK: objects.py:[[@LINE-1]]:5: warning: 'obj.y' is read before


def printed_object(x, y):
    h = Batch(x.to("cpu", non_blocking=True), y)
    print(h)  # a dataclass's repr prints its tensors
    # CHECK: objects.py:[[@LINE-1]]:11: warning: 'h' is passed to 'print' before


class ReadyMirror:
    def __init__(self, t):
        self.data = t.to("cpu", non_blocking=True)
        self.ready = torch.cuda.Event()
        self.ready.record()  # the event is the new object's: m.ready

    def get(self):
        self.ready.synchronize()
        return self.data


def init_event_waited(t):
    m = ReadyMirror(t)
    return m.get().sum()


def init_event_not_waited(t):
    m = ReadyMirror(t)
    return m.data.sum()
    # CHECK: objects.py:[[@LINE-1]]:12: warning: 'm.data' is read before


# An attribute the class binds once to a view of another (`numpy()` of a
# pinned tensor shares its memory, as a slice does): reading it reads the
# copies into the other (vLLM's num_accepted_tokens_cpu and its numpy view,
# PR #36013's race).
class AcceptedTokens:
    def __init__(self, n):
        self.accepted_cpu = torch.zeros(n, dtype=torch.int64, pin_memory=True)
        self.accepted_np = self.accepted_cpu.numpy()
        self.first_two = self.accepted_cpu[:2]

    def update(self, accepted):
        self.accepted_cpu[: accepted.shape[0]].copy_(accepted, non_blocking=True)

    def racy(self, accepted):
        self.update(accepted)
        return self.accepted_np[:4].sum()
        # CHECK: objects.py:[[@LINE-1]]:16: warning: {{.*}} is read before

    def racy_slice(self, accepted):
        self.accepted_cpu.copy_(accepted, non_blocking=True)
        return self.first_two.sum()
        # CHECK: objects.py:[[@LINE-1]]:16: warning: {{.*}} is read before

    def synced(self, accepted):
        self.update(accepted)
        torch.cuda.synchronize()
        return self.accepted_np[:4].sum()
