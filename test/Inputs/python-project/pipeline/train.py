# Calls into transfer.py through the import spellings a package uses.
import torch

from . import transfer
from .transfer import fetch, wait_all
from pipeline import transfer as tr


def racy(g):
    h = fetch(g)
    return h.tolist()


def synchronized_in_the_other_module(g):
    h = transfer.fetch(g)
    wait_all()
    return h.tolist()


def read_in_the_other_module(g):
    h = tr.fetch(g)
    return tr.consume(h)


def written_in_the_other_module(b):
    side = torch.cuda.Stream()
    transfer.produce(b)
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def written_then_waited(b):
    side = torch.cuda.Stream()
    transfer.produce(b)
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        temp = b.to("cpu", non_blocking=True)
    side.synchronize()
    return temp.sum()


def shadowed(g, fetch):
    h = fetch(g)
    return h.tolist()
