#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/check-layout.sh - the include rules of the layout (docs/ARCHITECTURE.md):
# dependencies point one way, boot -> hv -> arch, so arch/ includes nothing
# from hv/ or boot/, lib/ nothing from hv/ or arch/, guest/ nothing from
# hv/, and hv/cpuid/ nothing from the SVM, vCPU or device directories. Reads C and NASM include lines; exits 1 and lists each violation.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
bad=0

# Known exceptions, "file:included-path": none. Each would be reported on
# every run; add one only with the reason beside it.
known=()

is_known() { # file path
	local k
	for k in "${known[@]+"${known[@]}"}"; do
		[ "$k" = "$1:$2" ] && return 0
	done
	return 1
}

# rule DIR WHAT: no file under DIR includes a path under any of WHAT.
rule() {
	local dir=$1 pat=$2 file line inc
	[ -d "$dir" ] || return 0
	while IFS=: read -r file line inc; do
		inc=${inc#*[\"<]}
		inc=${inc%%[\">]*}
		if is_known "$file" "$inc"; then
			echo "check-layout: known exception: $file:$line includes $inc"
			continue
		fi
		echo "check-layout: $file:$line includes $inc ($dir/ may not include $pat/)"
		bad=1
	done < <(grep -rnE "^[[:space:]]*[#%][[:space:]]*include[[:space:]]*[\"<]($pat)/" \
		--include='*.c' --include='*.h' --include='*.asm' --include='*.inc' \
		"$dir" 2>/dev/null)
}

rule arch 'hv|boot'
rule lib 'hv|arch|boot'
rule guest 'hv|boot'
# The guest CPUID model is pure: arch/, lib/ and the hv core only, no
# exit handling, vCPU or device code (the SVM side calls it).
rule hv/cpuid 'hv/svm|hv/guest|hv/platform|hv/vcpu|hv/vlapic|hv/loader|boot'

if [ $bad = 0 ]; then
	echo "check-layout: arch/, lib/, guest/ and hv/cpuid/ include nothing above them"
fi
exit $bad
