"""The seed's second fix as it was first suggested: the copy on a side
stream, that stream synchronized before the host reads the result, and no
wait_stream.

    with torch.cuda.stream(side): temp = b.to('cpu', non_blocking=True)
    side.synchronize(); a[:] = temp

The host access comes after a synchronization that covers the copy, but the
copy itself may read b before model_step's work on the default stream has
written it (stale in 9 of 10 runs on an H200,
runtime/cases/py_side_stream_no_wait.py and py_producer_side_copy.py): the
check reports the copy (the producer diagnostic) and names the missing
side.wait_stream(...). examples/seed_fixed_side_stream.py is the corrected
fix. Run: python3 examples/seed_fix2_no_wait.py
"""
import torch

ROWS, COLS, DEPTH = 13223, 134, 4


def model_step(b, w, pattern, iteration):
    """Keeps the GPU busy for some milliseconds, then writes b."""
    h = w @ w
    for _ in range(3):
        h = h @ w
    b.copy_(pattern + iteration)


def expected(iteration):
    return ((torch.arange(ROWS * COLS * DEPTH) % 251 + iteration)
            .float().reshape(ROWS, COLS, DEPTH))


def main():
    w = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16) * 0.01
    pattern = (torch.arange(ROWS * COLS * DEPTH, device="cuda") % 251).to(
        torch.bfloat16).reshape(ROWS, COLS, DEPTH)
    b = torch.empty(ROWS, COLS, DEPTH, device="cuda", dtype=torch.bfloat16)
    a = torch.empty(ROWS, COLS, DEPTH)  # float32, CPU
    side = torch.cuda.Stream()
    mismatches = 0
    for iteration in range(3):
        model_step(b, w, pattern, iteration)
        with torch.cuda.stream(side):
            temp = b.to("cpu", non_blocking=True)
        side.synchronize()
        a[:] = temp
        if not torch.equal(a, expected(iteration)):
            mismatches += 1
    print("iterations with stale data: %d of 3" % mismatches)


if __name__ == "__main__":
    main()
