#!/usr/bin/env python3
"""Checks an installed documentation tree (share/doc/cuda-async-read-before-sync
of `cmake --install` or the .deb): no directory is empty, and every relative
link of every markdown file (inline `[text](target)`, images, reference
definitions `[id]: target`, HTML href/src; not in code) names a file or
directory that is installed, and a `#fragment` into a markdown file names one
of its headings (GitHub's anchors). Prints one line per problem and a
summary; exits 1 on any problem. Used by test/integration/package.test.

    check-docs.py DOCDIR
"""

import os
import re
import sys
from urllib.parse import unquote

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]"
                    r"\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)", re.M)
HTML = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def prose(text):
    """The text without fenced code blocks and code spans (links there are
    not links)."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def anchors(text):
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to
    '-', a repeated one numbered."""
    seen, out = {}, set()
    for h in HEADING.findall(FENCE.sub("", text)):
        h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", h).replace("`", "")
        slug = re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else "%s-%d" % (slug, n))
    return out


def links(text):
    body = prose(text)
    for rx in (INLINE, REFDEF, HTML):
        for m in rx.finditer(body):
            yield m.group(1).strip("<>")


def check(root):
    problems, files, count = [], 0, 0
    for d, subdirs, names in os.walk(root):
        if not subdirs and not names:
            problems.append("empty directory: %s" % os.path.relpath(d, root))
        for name in sorted(names):
            if not name.endswith(".md"):
                continue
            files += 1
            path = os.path.join(d, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for target in links(text):
                if SCHEME.match(target) or target.startswith("/"):
                    continue  # absolute: not this tree's business
                count += 1
                where, _, frag = target.partition("#")
                where = unquote(where.partition("?")[0])
                dest = os.path.normpath(os.path.join(d, where)) if where else path
                rel = os.path.relpath(path, root)
                if not os.path.exists(dest):
                    problems.append("%s: broken link %s (not installed)" % (rel, target))
                elif frag and dest.endswith(".md"):
                    with open(dest, encoding="utf-8") as f:
                        if frag.lower() not in anchors(f.read()):
                            problems.append("%s: broken link %s (no such heading)" % (rel, target))
    return problems, files, count


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        sys.stderr.write("usage: check-docs.py DOCDIR\n")
        return 2
    problems, files, count = check(argv[1])
    for p in problems:
        print(p)
    print("%d markdown files, %d relative links, %d problems" % (files, count, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
