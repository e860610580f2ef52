#!/usr/bin/env bash
# Print the subject and blurb of a format-patch cover letter, the form
# git's branch description takes (first paragraph the subject).
# Usage: ci/cover-text.sh COVER_LETTER
set -euo pipefail
awk '
!body && /^Subject: / { sub(/^Subject: (\[[^]]*\] )?/, ""); subj = $0; next }
!body && subj != "" && /^ / { subj = subj $0; next }
!body && /^$/ { body = 1; print subj; print ""; next }
body && /^[^ ].* \([0-9]+\):$/ { exit }
body { buf[++n] = $0 }
END { while (n > 0 && buf[n] == "") n--; for (i = 1; i <= n; i++) print buf[i] }
' "$1"
