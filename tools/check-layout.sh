#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/check-layout.sh - the include rules of the layout (docs/ARCHITECTURE.md):
# dependencies point one way, boot -> hv -> arch, so arch/ includes nothing
# from hv/ or boot/, lib/ nothing from hv/, arch/ or boot/, guest/ nothing
# from hv/, boot/ or arch/, and hv/ nothing from boot/. Inside hv/ the
# directories ("rooms", hv/*.c being the core) form no cycle and follow the
# room order below; an internal.h (or *_internal.h) is included only from
# its own directory and tests/; nothing outside hv/selftest includes it.
# Each hardware constant is defined once, in arch/. Each include guard
# names its header's path; README.md and docs/ name only paths that exist.
# Reads C and NASM include lines, #defines and the docs; exits 1 and lists
# each violation.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
bad=0

# Known exceptions, "file:included-path": none. Each would be reported on
# every run; add one only with the reason beside it.
known=()

# The rooms of hv/, bottom first: a file includes only its own room and
# rooms on lines above; rooms on one line include nothing of each other.
# A new directory goes here and into docs/ARCHITECTURE.md.
rooms=(
	"hv"
	"hv/time hv/ras"
	"hv/options hv/acpi hv/cpuid"
	"hv/smp"
	"hv/park hv/mtrr hv/snp"
	"hv/emul hv/vmcb hv/sched"
	"hv/vlapic"
	"hv/platform"
	"hv/vcpu"
	"hv/loader"
	"hv/guest"
	"hv/view"
	"hv/svm"
	"hv/run"
	"hv/selftest"
)

is_known() { # file path
	local k
	for k in "${known[@]+"${known[@]}"}"; do
		[ "$k" = "$1:$2" ] && return 0
	done
	return 1
}

# Every include line under the given directories, as file:line:included.
includes() {
	grep -rnE '^[[:space:]]*[#%][[:space:]]*include[[:space:]]*["<]' \
		--include='*.c' --include='*.h' --include='*.asm' \
		--include='*.inc' "$@" 2>/dev/null |
		sed -E 's/^([^:]*):([0-9]+):[^"<]*["<]([^">]*)[">].*/\1:\2:\3/'
}

report() { # file line included why
	if is_known "$1" "$3"; then
		echo "check-layout: known exception: $1:$2 includes $3"
		return
	fi
	echo "check-layout: $1:$2 includes $3 ($4)"
	bad=1
}

# rule DIR WHAT: no file under DIR includes a path under any of WHAT.
rule() {
	local dir=$1 pat=$2 file line inc
	[ -d "$dir" ] || return 0
	while IFS=: read -r file line inc; do
		[[ $inc =~ ^($pat)/ ]] || continue
		report "$file" "$line" "$inc" "$dir/ may not include $pat/"
	done < <(includes "$dir")
}

rule arch 'hv|boot'
rule lib 'hv|arch|boot'
rule guest 'hv|boot|arch'
rule hv 'boot'

# A private header: only its own directory and the unit tests include it.
while IFS=: read -r file line inc; do
	[[ $inc =~ (^|/)([A-Za-z0-9_]*_)?internal\.h$ ]] || continue
	[ "$(dirname "$file")" = "$(dirname "$inc")" ] && continue
	report "$file" "$line" "$inc" \
		"$(dirname "$inc")/ private header outside its directory"
done < <(includes arch boot hv lib guest include)

# Production names no test: only hv/selftest includes hv/selftest/
# (production runs it through hv/selftest_hook.h).
while IFS=: read -r file line inc; do
	[[ $inc == hv/selftest/* && $file != hv/selftest/* ]] || continue
	report "$file" "$line" "$inc" "only hv/selftest includes hv/selftest/"
done < <(includes arch boot hv lib guest include)

# The directory graph of hv/: "from to file:line:included" per include of
# one room by another (hv/*.c and hv/*.h are the room "hv").
room_of() { # path -> its room
	local d=${1%/*}
	echo "$d"
}
edges=$(includes hv | while IFS=: read -r file line inc; do
	[[ $inc == hv/* ]] || continue
	from=$(room_of "$file")
	to=$(room_of "$inc")
	[ "$from" = "$to" ] || echo "$from $to $file:$line:$inc"
done)

# Any cycle, found by a depth-first search; printed with one include line
# per edge as the evidence.
cycle=$(printf '%s\n' "$edges" | awk '
	NF == 3 {
		if (!((($1) SUBSEP ($2)) in ev)) {
			ev[$1, $2] = $3
			adj[$1] = adj[$1] " " $2
		}
		node[$1] = 1
		node[$2] = 1
	}
	function dfs(u,    n, i, w, a) {
		color[u] = 1
		n = split(adj[u], a, " ")
		for (i = 1; i <= n && !found; i++) {
			w = a[i]
			if (color[w] == 1) {
				found = 1
				print_cycle(u, w)
			} else if (!color[w]) {
				parent[w] = u
				dfs(w)
			}
		}
		color[u] = 2
	}
	function print_cycle(u, w,    p, k, j, x, path) {
		# The cycle is w -> ... -> u -> w; p[k] .. p[1] walks it.
		k = 0
		for (x = u; x != w; x = parent[x])
			p[++k] = x
		path = w
		for (j = k; j >= 1; j--)
			path = path " -> " p[j]
		print "check-layout: include cycle between hv/ directories: " \
			path " -> " w
		x = w
		for (j = k; j >= 1; j--) {
			print "check-layout:   " x " -> " p[j] ": " ev[x, p[j]]
			x = p[j]
		}
		print "check-layout:   " u " -> " w ": " ev[u, w]
	}
	END {
		for (u in node)
			if (!color[u] && !found)
				dfs(u)
	}')
if [ -n "$cycle" ]; then
	echo "$cycle"
	bad=1
fi

# The room order: an include of a room on a later line, or of another room
# on the same line, points the wrong way; a directory in no room fails too.
declare -A level=()
for i in "${!rooms[@]}"; do
	for r in ${rooms[$i]}; do
		level[$r]=$i
	done
done
while read -r d; do
	[ -n "${level[$d]+x}" ] && continue
	echo "check-layout: $d/ is in no room (add it to rooms in tools/check-layout.sh and to docs/ARCHITECTURE.md)"
	bad=1
done < <(find hv -name '*.[ch]' | sed 's|/[^/]*$||' | sort -u)
while read -r from to where; do
	[ -n "$from" ] || continue
	[ -n "${level[$from]+x}" ] && [ -n "${level[$to]+x}" ] || continue
	[ "${level[$to]}" -lt "${level[$from]}" ] && continue
	IFS=: read -r file line inc <<<"$where"
	report "$file" "$line" "$inc" \
		"$to/ is above $from/ in the room order"
done <<<"$edges"

# Every hardware constant is defined once, in arch/ (register-only headers
# such as arch/cr.h, apicdef.h, uart_regs.h, fw_cfg_regs.h, msr.h, pte.h,
# vmcb.h, vectors.h) and included by both the driver and the model. The
# test guest (guest/) shares no headers with minhv and keeps its own.
c_defines() { # NAME-REGEX: "file:line:text" of each #define of a match
	grep -rnE "^[[:space:]]*#[[:space:]]*define[[:space:]]+($1)([[:space:](]|$)" \
		--include='*.c' --include='*.h' arch hv boot lib include tests \
		2>/dev/null
}
# Key names: exactly one #define, and it is in arch/.
once_in_arch='CR0_PE|CR0_PG|CR4_PAE|CR4_OSXSAVE|EFER_LME|EFER_SVME|'
once_in_arch+='RFLAGS_IF|RFLAGS_TF|DR6_BS|XCR0_X87|VEC_NMI|VEC_GP|VEC_MC|'
once_in_arch+='PTE_P|PTE_PS|PTE_ADDR_MASK|V_IRQ|V_TPR_MASK|V_IGN_TPR|'
once_in_arch+='VMCB_CLEAN_I|SEG_ATTR_L|APIC_DEFAULT_BASE|APIC_REG_TPR|'
once_in_arch+='APIC_REG_TIMER_INIT|APIC_REG_ICR_LO|APIC_LVT_MASKED|'
once_in_arch+='APIC_SVR_ENABLE|ICR_DEST_LOGICAL|X2APIC_MSR|UART_COM1_PORT|'
once_in_arch+='UART_LSR|UART_LSR_THRE|UART_LCR_DLAB|FW_CFG_PORT_SEL|'
once_in_arch+='FW_CFG_SIGNATURE|FW_CFG_NB_CPUS|QEMU_DEBUG_EXIT_PORT|'
once_in_arch+='MSR_APIC_BASE|MSR_TSC_DEADLINE|MSR_TSC_ADJUST|MSR_EFER|'
once_in_arch+='MSR_X2APIC_BASE|MSR_K7_EVNTSEL0|MSR_AMD_SYSCFG|MTRR_TYPE_WB|'
once_in_arch+='VIRTIO_MMIO_MAGIC_VALUE|VIRTIO_F_VERSION_1|VIRTQ_DESC_F_NEXT|'
once_in_arch+='VIRTIO_BLK_T_IN|EINVAL|ENOMEM|E_NOT_MINE'
for name in ${once_in_arch//|/ }; do
	hits=$(c_defines "$name")
	n=$(printf '%s' "$hits" | grep -c .)
	where=$(printf '%s' "$hits" | cut -d: -f1 | sort -u)
	if [ "$n" != 1 ] || [ "${where%%/*}" != arch ]; then
		echo "check-layout: $name must be defined once, in arch/; found $n:"
		printf '%s\n' "$hits" | sed 's/^/check-layout:   /'
		bad=1
	fi
done
# Spellings that were merged into the names above: none may come back.
retired='X86_CR[04]_[A-Z0-9]+|R_(ID|VER|TPR|PPR|EOI|SVR|ESR|ICR_LO|ICR_HI|'
retired+='LVT0|LVT5|TMICT|TMCCT|TDCR|SELF_IPI)|LVT_MASKED|SVR_ENABLE|'
retired+='XAPIC_DEFAULT_BASE|VLAPIC_DEFAULT_BASE|VLAPIC_DM_[A-Z]+|'
retired+='VLAPIC_TIMER_[A-Z_]+|VLAPIC_MSR_(FIRST|LAST)|MSR_IA32_[A-Z_]+|'
retired+='K7_EVNTSEL0|MSR_K7_PERF_(FIRST|LAST)|CLEAN_I|ADDR_52|'
retired+='LSR_THRE|LSR_TEMT|COM1_PORT|COM1_DATA|FW_CFG_PORT|DEBUG_EXIT_PORT|'
retired+='APIC_E(INVAL|RANGE|TIMEDOUT)|ATTR_[LD]'
while IFS= read -r hit; do
	[ -n "$hit" ] || continue
	echo "check-layout: $hit: a second name for a constant of arch/"
	bad=1
done < <(c_defines "$retired")
# Addresses and ports whose value says what they are, outside arch/.
while IFS= read -r hit; do
	[ -n "$hit" ] || continue
	case $hit in arch/*) continue ;; esac
	echo "check-layout: $hit: use the arch/ constant for this value"
	bad=1
done < <(grep -rniE '^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z_0-9]+[[:space:]]+\(?(0xfee00000|0x3f8|0x510|0xc0010000)[ul]*\)?([[:space:]]|$)' \
	--include='*.c' --include='*.h' arch hv boot lib include tests 2>/dev/null)

# A cached VMCB field (APM 15.15.3 clean groups) written after the first
# VMRUN must clear its clean bit: handlers go through arch/vmcb.h's setters
# (vmcb_set_dr6() & co.), which do. Only the builders of a VMCB that has
# not run yet (clean = 0) write the fields directly.
vmcb_builders='arch/vmcb.h|hv/vmcb/vmcb_build.c|hv/guest/cpu_reset.c'
cached='save\.(cr[0234]|efer|dr[67]|g_pat|[gi]dtr|[cdes]s|cpl)|'
cached+='control\.(v_intr|asid|n_cr3|np_enable|tsc_offset|iopm_base_pa|'
cached+='msrpm_base_pa|pause_filter_(count|threshold)|intercepts)'
while IFS= read -r hit; do
	[ -n "$hit" ] || continue
	if printf '%s' "${hit%%:*}" | grep -qxE "$vmcb_builders"; then
		continue
	fi
	echo "check-layout: $hit: a cached VMCB field written without its setter (arch/vmcb.h marks the clean bit)"
	bad=1
done < <(grep -rnE "($cached|c->pause_filter_(count|threshold))(\.[a-z_]+|\[[^]]*\])?[[:space:]]*([|&+-]|<<|>>)?=[^=]" \
	--include='*.c' --include='*.h' arch hv 2>/dev/null)

# Production has one variant: what the unit tests need instead is in
# tests/doubles/, never behind an #ifdef of the unit build.
while IFS= read -r hit; do
	[ -n "$hit" ] || continue
	echo "check-layout: $hit: a unit-test variant in production (move it to tests/doubles/)"
	bad=1
done < <(grep -rnE 'MINHV_HOST_TEST|MINHV_UNIT' --include='*.c' --include='*.h' \
	arch hv boot lib include 2>/dev/null)

# An include guard names its header's path: MINHV_ and the path in
# capitals, '/', '.' and '-' as '_' (hv/vcpu/vcpu.h: MINHV_HV_VCPU_VCPU_H),
# so a header that moves cannot keep the guard of its old place. The first
# two directives of a header are its #ifndef and #define.
while IFS= read -r hit; do
	[ -n "$hit" ] || continue
	echo "check-layout: $hit"
	bad=1
done < <(find arch boot hv lib include guest tests -name '*.h' 2>/dev/null |
	sort | xargs -r awk '
	function done_file() {
		if (file != "" && n < 2)
			print file ": no include guard #ifndef " want
	}
	FNR == 1 {
		done_file()
		file = FILENAME
		n = 0
		want = "MINHV_" toupper(FILENAME)
		gsub(/[\/.-]/, "_", want)
	}
	/^[[:space:]]*#/ && n < 2 {
		n++
		d = n == 1 ? "ifndef" : "define"
		if ($1 != "#" d || $2 != want) {
			print FILENAME ":" FNR ": the include guard is not #" \
				d " " want
			n = 2
		}
	}
	END { done_file() }')

# A path that README.md, CONTRIBUTING.md or docs/*.md names in the tree
# exists: `hv/svm/vcpu_run.c`, `arch/apic.{h,c}`, `hv/acpi/*.c`, `hv/smp/`,
# `hv/loader/elf.o` (its source). Linux's `arch/x86/...` and the Debian
# kernel package's `boot/vmlinuz-*` are not paths of this tree.
doc_paths() { # "doc:line:path" for each path named
	grep -noE '(^|[^A-Za-z0-9_./-])(arch|boot|hv|lib|guest|include|tests|tools|docs)/[A-Za-z0-9_./{},*-]*' \
		README.md CONTRIBUTING.md docs/*.md 2>/dev/null |
		sed -E 's/^([^:]*):([0-9]+):[^a-z]*/\1:\2:/; s/[.,]+$//'
}
path_exists() { # path, with at most one {a,b} group and * globs
	local p=$1 pre rest alt
	case $p in
	*'{'*'}'*)
		pre=${p%%\{*}
		rest=${p#*\{}
		local IFS=,
		for alt in ${rest%%\}*}; do
			path_exists "$pre$alt${rest#*\}}" || return 1
		done
		return 0
		;;
	*.o)
		path_exists "${p%.o}.c" || path_exists "${p%.o}.asm"
		return
		;;
	esac
	compgen -G "$p" >/dev/null
}
while IFS=: read -r doc line p; do
	case $p in arch/x86/* | boot/vmlinuz-*) continue ;; esac
	path_exists "$p" && continue
	echo "check-layout: $doc:$line names $p, which does not exist"
	bad=1
done < <(doc_paths)

if [ $bad = 0 ]; then
	echo "check-layout: arch/, lib/ and guest/ include nothing above them, hv/ nothing of boot/; private headers stay home; the hv/ rooms form no cycle and follow their order"
	echo "check-layout: hardware constants are defined once, in arch/; no unit-test variant in production"
	echo "check-layout: cached VMCB fields are written through their setters"
	echo "check-layout: include guards name their paths; the docs name only paths that exist"
fi
exit $bad
