"""Copies kept in containers (a mixin of analysis.Function): lists, tuples
and dicts of pending copies, built by a literal, a comprehension,
`append` / `insert` / `extend` or `d[k] = t`, and named by a local or an
attribute of self. State.elems maps the container's path to the copies
among its elements.

What reads the elements: a torch or NumPy function given the container
(`torch.cat(outs)`, `torch.stack(outs)`, `np.concatenate(outs)`: they read
every tensor in it), and an element taken out of it, which is then a tensor
like any other (what is done with it decides): each element in turn (`for
o in outs:`), or the one stored under the same constant key (`d["a"] = t`
... `d["a"]`). An element taken out by another key or index may be one
that is not in flight, so it is not claimed. What does not: the container's truth or length, storing more into
it, returning it, handing it to a function that is not torch's or NumPy's
(it may only store it: a queue, a record). The copies stay in flight until
a synchronization covers them, as any copy.

May call: model, state, objects (its constants).
"""

import ast

from . import model
from .objects import PAIR_VIEWS
from .state import EMPTY

# Module prefixes of functions that read the tensors of a container they
# are given.
READING_MODULES = ("torch.", "np.", "numpy.")
# Methods that put their (last) argument into the container.
ADDING_METHODS = {"append", "insert", "appendleft"}
# Methods that put the elements of their argument into the container.
EXTENDING_METHODS = {"extend", "extendleft"}


def element_path(node):
    """`d["a"]` / `outs[0]` of a container path with a constant key: the
    path its element is kept under, or None."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.slice, ast.Constant):
        return None
    path = container_path(node.value)
    return "%s[%r]" % (path, node.slice.value) if path else None


def container_path(node):
    """The path of a container a statement can name again later: a local
    or an attribute of self."""
    path = model.dotted(node)
    if path and (isinstance(node, ast.Name) or path.startswith("self.")):
        return path
    return None


def stores_into(body, container):
    """Whether statements store an element into the container expression
    (`d[k] = ...`)."""
    path = container_path(container)
    return path is not None and any(
        isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store) and container_path(n.value) == path
        for s in body for n in ast.walk(s))


class Containers:
    """Methods of analysis.Function for copies kept in containers."""

    def elements_of(self, node, v, st):
        """The copies among the elements of a container expression whose
        value (ev) was v: a literal's elements, a comprehension's element,
        another container's elements."""
        if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            return v
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return self.comp_values.get(id(node), EMPTY)
        if isinstance(node, ast.Call):
            return self.module_elements(node, st)  # model.state_dict(), d.items()
        path = container_path(node)
        return st.elems.get(path, EMPTY) if path else EMPTY

    def store_elements(self, path, copies, st, replace):
        """Container `path` holds `copies` now (replace), or more of them."""
        held = copies if replace else st.elems.get(path, EMPTY) | copies
        if held:
            st.elems[path] = held
        else:
            st.elems.pop(path, None)

    def container_call(self, node, attr, arg_vals, st):
        """`outs.append(t)`, `outs.extend(ts)`: the container holds them."""
        path = container_path(node.func.value)
        if path is None or not arg_vals:
            return
        if attr in ADDING_METHODS:
            a, v = arg_vals[-1]
            self.store_elements(path, v, st, replace=False)
        elif attr in EXTENDING_METHODS:
            a, v = arg_vals[0]
            self.store_elements(path, self.elements_of(a, v, st), st, replace=False)

    def read_containers(self, node, name, st):
        """torch.cat(outs) / np.stack(outs): the tensors in outs are read."""
        if not name.startswith(READING_MODULES):
            return
        short = name.rsplit(".", 1)[-1]
        for a in list(node.args) + [k.value for k in node.keywords if k.arg != "out"]:
            path = container_path(a)
            held = st.elems.get(path, EMPTY) if path else self.module_elements(a, st)
            if held:
                self.access(held, a, st, "passed to '%s'" % short)

    def bind_iteration(self, loop, st):
        """`for o in outs:`: o is one of the elements; `for k, v in
        d.items()` / `for n, p in model.named_parameters()`: v, p are."""
        path = container_path(loop.iter)
        held = st.elems.get(path, EMPTY) if path else self.module_elements(loop.iter, st)
        if not path and held and stores_into(getattr(loop, "body", ()), loop.iter.func.value):
            # for k, v in d.items(): d[k] = v.to(...): a later v is another
            # key's, not one this loop stored in flight
            return
        target = loop.target
        if (isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(loop.iter, ast.Call)
                and isinstance(loop.iter.func, ast.Attribute)
                and loop.iter.func.attr in PAIR_VIEWS):
            target = target.elts[1]
        if held and isinstance(target, ast.Name):
            st.names[target.id] = held

    def element_of(self, node, st):
        """The copies an element taken out of a container may be: the one
        stored under the same constant key."""
        path = element_path(node)
        return st.elems.get(path, EMPTY) if path else EMPTY

    def store_element(self, target, v, st):
        """`d[k] = t`: d holds t, under k when k is a constant."""
        root = container_path(target.value)
        if root is None:
            return
        self.store_elements(root, v, st, replace=False)
        key = element_path(target)
        if key is not None:
            self.store_elements(key, v, st, replace=True)

    def forget_container(self, path, st):
        """path names another object now."""
        for k in [k for k in st.elems
                  if k == path or k.startswith(path + ".") or k.startswith(path + "[")]:
            del st.elems[k]
