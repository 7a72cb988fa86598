#!/usr/bin/env bash
# Checks every section reference ("section sign" + number) in the tracked files against the
# behaviour spec in docs/spec/ (the rule is in docs/spec/README.md, "Citing the spec"):
#   - outside docs/spec, a reference takes its file from the nearest "<name>.md" to its left on the
#     same line, which must be written "spec <name>.md"; inside docs/spec/<file>.md a reference
#     with no such file to its left is to <file>.md itself;
#   - docs/spec/<name>.md must exist and have a heading for the section.
# Prints "file:line: unresolved reference ..." for each one that fails and exits 1; `make lint`
# runs it. Not scanned: binary files, Go checksums (*.sum), fuzz inputs (webhook/fuzz/corpus/),
# docs/spec/README.md (its examples are not references) and this script, which writes the section
# sign as bytes.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

sect=$'\xc2\xa7'
spec_dir=docs/spec

# Headings: "<file> <section>" for every markdown heading outside code fences whose text starts
# with a section number followed by a space, the end of the line, or "." then a space or the end.
headings=$(for f in "$spec_dir"/*.md; do
  awk -v file="$(basename "$f")" '
    /^```/ { fence = !fence; next }
    !fence && /^#+[ \t]/ {
      t = $0; sub(/^#+[ \t]+/, "", t)
      if (match(t, /^[0-9]+(\.[0-9]+)*/)) {
        rest = substr(t, RLENGTH + 1)
        if (rest == "" || rest ~ /^[ \t]/ || rest == "." || rest ~ /^\.[ \t]/)
          print file, substr(t, 1, RLENGTH)
      }
    }' "$f"
done)

{
  printf '%s\n' "$headings" | sed 's/^/H /'
  git grep -I -n -F -e "$sect" -- . ":(exclude)*.sum" ":(exclude)webhook/fuzz/corpus" \
    ":(exclude)$spec_dir/README.md" ":(exclude)tools/check-spec-refs.sh" | sed 's/^/R /' || true
} | awk -v sect="$sect" -v spec_dir="$spec_dir" '
  $1 == "H" { heading[$2 " " $3] = 1; specfile[$2] = 1; next }
  {
    line = substr($0, 3)
    # "path:lineno:text"
    c1 = index(line, ":"); path = substr(line, 1, c1 - 1); line = substr(line, c1 + 1)
    c2 = index(line, ":"); lineno = substr(line, 1, c2 - 1); text = substr(line, c2 + 1)
    own = ""
    if (index(path, spec_dir "/") == 1) own = substr(path, length(spec_dir) + 2)
    off = 0
    while ((p = index(substr(text, off + 1), sect)) > 0) {
      p += off; off = p + length(sect) - 1
      after = substr(text, off + 1)
      if (!match(after, /^[0-9]+(\.[0-9]+)*/)) {
        bad(path, lineno, sect substr(after, 1, 8), "no section number after the section sign"); continue
      }
      sec = substr(after, 1, RLENGTH)
      ref = sect sec
      if (substr(after, RLENGTH + 1, 1) ~ /[A-Za-z0-9_]/) {
        bad(path, lineno, sect substr(after, 1, RLENGTH + 1), "section number runs into a letter"); continue
      }
      # The nearest "<name>.md" left of the reference on this line.
      before = substr(text, 1, p - 1); name = ""; start = 0; scan = before; base = 0
      while (match(scan, /[A-Za-z0-9_][A-Za-z0-9_.-]*\.md/)) {
        start = base + RSTART; name = substr(scan, RSTART, RLENGTH)
        base += RSTART + RLENGTH - 1; scan = substr(scan, RSTART + RLENGTH)
      }
      if (name == "") {
        if (own == "") { bad(path, lineno, ref, "names no spec file (write: spec <file>.md " ref ")"); continue }
        name = own
      } else {
        lead = substr(before, 1, start - 1)
        if (lead !~ /(^|[^A-Za-z0-9_\/.-])spec $/) {
          bad(path, lineno, ref, "the file is not named as \"spec " name "\""); continue
        }
      }
      if (!(name in specfile)) { bad(path, lineno, ref, "no " spec_dir "/" name); continue }
      if (!((name " " sec) in heading)) {
        bad(path, lineno, ref, "no heading " sec " in " spec_dir "/" name); continue
      }
      checked++
    }
  }
  function bad(f, n, r, why) { printf "%s:%s: unresolved reference \"%s\": %s\n", f, n, r, why; errors++ }
  END {
    if (errors) { printf "%d unresolved spec reference(s); see %s/README.md\n", errors, spec_dir; exit 1 }
    printf "spec references: %d resolved\n", checked
  }'
