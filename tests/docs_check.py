#!/usr/bin/env python3
"""Every relative link and image in README.md and docs/*.md points at a file or directory of the
repository, and every #anchor at a heading of the Markdown file it names (GitHub's heading ids).

usage: docs_check.py REPO_ROOT
Links with a scheme (https:, mailto:) are not followed. Code blocks and code spans are skipped.
"""
import pathlib, re, sys, urllib.parse

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE = re.compile(r"\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
HTML_ID = re.compile(r"<a\b[^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with code spans blanked."""
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        opened = FENCE.match(line)
        if opened:
            fenced = None if fenced == opened.group(1) else (fenced or opened.group(1))
            continue
        if fenced is None:
            yield number, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


def slug(heading):
    """GitHub's id for a heading: the rendered text, lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    text = re.sub(r"(\*\*|__|\*)", "", text)
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def anchors(path, cache={}):
    """Every id a Markdown file's headings and <a id> tags define."""
    if path not in cache:
        ids, seen = set(), {}
        text = path.read_text(encoding="utf-8")
        for _, line in prose_lines(text):
            ids.update(HTML_ID.findall(line))
        for _, line in _headings(text):
            base = slug(line)
            count = seen.get(base, 0)
            seen[base] = count + 1
            ids.add(base if count == 0 else f"{base}-{count}")
        cache[path] = ids
    return cache[path]


def _headings(text):
    fenced = None
    for number, line in enumerate(text.splitlines(), 1):
        opened = FENCE.match(line)
        if opened:
            fenced = None if fenced == opened.group(1) else (fenced or opened.group(1))
            continue
        match = HEADING.match(line) if fenced is None else None
        if match:
            yield number, match.group(2)


def targets(text):
    for number, line in prose_lines(text):
        for pattern in (INLINE, REFERENCE, HTML):
            for target in pattern.findall(line):
                yield number, target.strip("<>")


def check_link(root, doc, target):
    """An error message, or None when the target resolves."""
    if SCHEME.match(target):
        return None
    path_part, _, anchor = target.partition("#")
    path_part = urllib.parse.unquote(path_part)
    dest = doc if path_part == "" else (doc.parent / path_part).resolve()
    if root not in dest.parents and dest != root:
        return f"{target}: points outside the repository"
    if not dest.exists():
        return f"{target}: no such file or directory"
    if anchor:
        if dest.suffix.lower() != ".md" or not dest.is_file():
            return f"{target}: an anchor into a file that is not Markdown cannot be checked"
        if urllib.parse.unquote(anchor) not in anchors(dest):
            return f"{target}: no heading with id '{anchor}' in {dest.relative_to(root)}"
    return None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    docs = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    errors, links = [], 0
    for doc in docs:
        for number, target in targets(doc.read_text(encoding="utf-8")):
            links += 1
            error = check_link(root, doc.resolve(), target)
            if error:
                errors.append(f"{doc.relative_to(root)}:{number}: {error}")
    for error in errors:
        print(error)
    print(f"docs_check: {len(docs)} files, {links} links, {len(errors)} broken")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
