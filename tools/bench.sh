#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/bench.sh - `make bench`: boots minhv's benchmark scenarios under QEMU
# (deterministic -icount shift=5 and plain TCG), parses the serial logs into
# build/bench/results.json, a console table and gnuplot PNGs; BASE=<rev>
# builds that revision in a worktree too and prints new/base ratios.
# Usage: tools/bench.sh [--base REV] [--quick] [--no-288] [--linux]
#        [--linux-user] [--exits] [--sched] | --self-test
#        --exits: only a foreign guest's exits under -icount, timed by the
#        guest itself: guest/mb-bench/exits.asm (xAPIC MMIO reads and EOI
#        writes, CPUID, PM timer, TSC-deadline) and kvm-unit-tests
#        vmexit.flat (CPUID, PM timer read, TSC-deadline write); a full
#        run does both too, a --quick run exits.asm only.
#        --linux: only the Linux figures: the /init boot under -icount (one
#        minhv boot, one bare QEMU boot) and the user figures below; a full
#        run (not --quick) does both too when the kernel can be had.
#        --linux-user: only Linux as its users run it (issue 25's figures,
#        tools/linux-stages.sh stage bench: busybox, console=ttyS0): boot
#        to the shell, console bytes/s, fork+exec x2000, pipe ping-pong,
#        on bare QEMU and under minhv, with minhv/bare ratios;
#        LINUX_BENCH_VCPUS="1 4" (default 4) the vCPU counts;
#        both under -icount shift=5,align=off,sleep=off (exact; set
#        LINUX_ICOUNT= for plain TCG, or another -icount setting).
#        --sched: only the PAUSE policies (issue 27, docs/SCHED.md): /init's
#        lock-heavy workload (minhv.work=SCHED_WORK rounds, default 12) on
#        Linux under -icount, 4 vCPUs on 2 CPUs for pause_yield=none, any
#        and directed, and 2 on 2 with the default policy and with PAUSE not
#        intercepted; guest TSC of the workload, PAUSE exits, and the
#        ratios against issue 27's targets. A full run does it too.
#        SCHED_TCG=1: the same boots under plain TCG (tcg.sched.*).
#        tools/bench.sh --parse LOG MODE TAG   (figures of one log, as TSV)
#        tools/bench.sh --hw-image   (build/bench/minhv-bench.img, bench=1)
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
icount="-icount shift=5,align=off,sleep=off"
base="" quick=0 big=1 linux=auto jobs=${BENCH_JOBS:-2}

# parse LOG MODE TAG: one "name<TAB>value<TAB>unit<TAB>method" line per figure.
# TAG names the scenario (e.g. n4-par-ss); per-scenario figures get it added.
parse() {
	sed 's/\r//g' "$1" | awk -v mode="$2" -v tag="$3" '
	function emit(name, val, unit, method) {
		printf "%s.%s\t%s\t%s\t%s\n", mode, name, val, unit, method
	}
	# The PAUSE-policy runs (run_sched): the workload time of /init (guest
	# TSC, exact under -icount) and the PAUSE exits minhv counted.
	/minhv-init: work: .* tsc=[0-9]+/ {
		m = $0; sub(/.*tsc=/, "", m); sub(/[^0-9].*/, "", m)
		emit("sched.linux_work." tag, m, "tsc", "/init minhv.work: futex, page drops, pipe ring, fork+exec threads, guest TSC")
	}
	/^svm: guest user exits [0-9]+: .* pause [0-9]+/ {
		m = $0; sub(/.* pause /, "", m); sub(/[^0-9].*/, "", m)
		emit("sched.linux_pause_exits." tag, m, "exits", "PAUSE exits of the whole Linux run")
	}
	# A count in instructions from TSC: mawk prints big numbers as %g.
	function insn(tsc) { return sprintf("%.0f", int(tsc / 32)) }
	function kv(s, key,   m) {
		if (match(s, "(^| )" key "=[0-9]+")) {
			m = substr(s, RSTART, RLENGTH); sub(/.*=/, "", m); return m
		}
		return ""
	}
	{ sub(/^\[guest\] /, ""); user = sub(/^\[user\] /, "") }
	# Linux boot (run_linux): the first RDTSC of /init (guest TSC), the
	# absolute efi_main / first-VMRUN TSC of minhv, the guest TSC offset.
	/minhv-init: tsc=[0-9]+/ { init_tsc = kv($0, "tsc") }
	/^bench: boot_tsc efi_main=/ {
		efi_main = kv($0, "efi_main"); first_vmrun = kv($0, "first_vmrun")
	}
	/^bench: linux tsc_offset=/ {
		m = $0; sub(/.*tsc_offset=/, "", m); sub(/ .*/, "", m); tsc_off = m
	}
	# A foreign guest timing its own exits, one "name TSC" line each:
	# kvm-unit-tests vmexit.flat ("cpuid 6048") and guest/mb-bench/
	# ("xapic_read 22241"), TSC per operation.
	user && /^[a-z][a-z0-9_]* [0-9]+$/ {
		emit("guest." $1, $2, "tsc", "foreign guest under minhv: its own RDTSC delta per operation (kvm-unit-tests vmexit.flat, guest/mb-bench/)")
	}
	/^bench: exit\.[a-z_]+ n=/ {
		k = $2; sub(/^exit\./, "", k)
		emit("exit." k ".avg", kv($0, "avg"), "tsc", "guest RDTSC delta around one exiting instruction, 200 rounds")
		emit("exit." k ".min", kv($0, "min"), "tsc", "guest RDTSC delta, minimum of 200")
	}
	/^bench: svm\.exit_path vcpu=0 / {
		emit("svm.exit_path.min", kv($0, "min"), "tsc", "hv RDTSC #VMEXIT -> next VMRUN, vCPU 0")
		emit("svm.exit_path.avg", kv($0, "avg"), "tsc", "hv RDTSC #VMEXIT -> next VMRUN, vCPU 0 (includes waits)")
	}
	/^bench-result: ipi fence=/ {
		f = ($3 == "fence=on") ? "on" : "off"
		emit("ipi.pingpong_avg.fence_" f, kv($0, "ping_avg_cycles"), "tsc", "cpu0<->cpu1 IPI round trip")
		mc = kv($0, "mesh_calls"); cy = kv($0, "mesh_cycles")
		if (mc > 0)
			emit("ipi.mesh_per_call.fence_" f, int(cy / mc), "tsc", "all-to-all cross calls, cycles per call")
	}
	# The all-to-all mesh as IPIs per second (TSC at tsc_khz; plain TCG:
	# host time, indicative only) and, under -icount (TSC = 32 per
	# instruction, all CPUs), instructions the machine spent per IPI.
	/^bench-result: ipi-mesh fence=/ {
		f = ($3 == "fence=on") ? "on" : "off"
		n = kv($0, "ipis"); t = kv($0, "tsc"); khz = kv($0, "tsc_khz")
		if (n > 0 && t > 0) {
			emit("ipi.mesh_ipi_per_s.fence_" f "." tag, int(n * khz * 1000 / t), "IPI/s", "all-to-all mesh, " kv($0, "cpus") " CPUs: IPIs sent / TSC time")
			if (mode == "icount")
				emit("ipi.mesh_insn_per_ipi.fence_" f "." tag, sprintf("%.1f", t / 32 / n), "insn", "all-to-all mesh, " kv($0, "cpus") " CPUs: TSC / 32 / IPIs (all CPUs, waits included)")
		}
	}
	# The boot profile (hv/boot_prof.h): efi_main -> first VMRUN by
	# phase, one line; under -icount in instructions (exact).
	/^boot: profile total=[0-9]+ / {
		for (i = 3; i <= NF; i++) {
			if (split($i, kvp, "=") != 2)
				continue
			if (mode == "icount")
				emit("boot_prof." kvp[1] "." tag, insn(kvp[2]), "insn", "boot profile (hv/boot_prof.h): efi_main -> first VMRUN, " (kvp[1] == "total" ? "all phases" : "phase " kvp[1]) ", TSC / 32")
			else
				emit("boot_prof." kvp[1] "." tag, kvp[2], "tsc", "boot profile (hv/boot_prof.h): efi_main -> first VMRUN, " (kvp[1] == "total" ? "all phases" : "phase " kvp[1]))
		}
	}
	/^bench: boot efi_to_ebs=/ {
		emit("boot.efi_to_ebs", kv($0, "efi_to_ebs"), "tsc", "efi_main -> ExitBootServices")
		emit("boot.ebs_to_first_vmrun", kv($0, "ebs_to_first_vmrun"), "tsc", "ExitBootServices -> first VMRUN (includes the IPI benchmark under bench=1)")
	}
	/^smp: [0-9]+ of [0-9]+ CPUs online/ {
		n = $2; m = $0; sub(/.*\(/, "", m); sub(/ cycles.*/, "", m)
		emit("smp.bringup." tag, m, "tsc", "smp_init: " n " CPUs, INIT/SIPI to all checked in")
	}
	# The boot rendezvous only: later ones (range self-test, parked-CPU
	# check) would repeat the figure under the same name.
	/^mtrr: cycles max\/avg: / && !mtrr_cycles++ {
		# entry/disable/write/enable/exit maxima summed: the rendezvous length
		s = 0; c = 0
		for (i = 4; i <= NF; i += 2) {
			split($(i + 1), p, "/"); s += p[1]
			if ($i != "entry" && $i != "exit") c += p[1]
		}
		emit("mtrr.rendezvous." tag, s, "tsc", "sum of per-phase maxima over CPUs (entry/exit barriers included)")
		emit("mtrr.critical." tag, c, "tsc", "disable+write+enable phase maxima (caches off to on)")
	}
	/^mtrr: WBINVD executed/ && !mtrr_wb++ {
		emit("mtrr.wbinvd." tag, $4, "count", "WBINVDs in the rendezvous, all CPUs")
	}
	# Under -icount TSC = 32 x instructions: the figures in instructions.
	# With the lines of minhv the log is a minhv boot, else bare -kernel.
	END {
		if (init_tsc == "" || mode != "icount")
			exit
		if (efi_main == "") {
			emit("linux.to_init.bare", insn(init_tsc), "insn", "bare QEMU -kernel: reset (SeaBIOS, linuxboot ROM, kernel) -> /init main, TSC / 32")
			exit
		}
		if (first_vmrun == "" || first_vmrun == 0 || tsc_off == "")
			exit
		t = init_tsc - tsc_off
		emit("linux.first_insn.minhv", insn(first_vmrun - efi_main), "insn", "minhv efi_main -> first VMRUN of the kernel, TSC / 32")
		emit("linux.to_init.minhv", insn(t - efi_main), "insn", "minhv efi_main -> /init main (guest TSC less VMCB offset), TSC / 32")
		emit("linux.kernel_to_init.minhv", insn(t - first_vmrun), "insn", "first VMRUN -> /init main: the kernel boot under minhv, TSC / 32")
		emit("linux.reset_to_init.minhv", insn(t), "insn", "reset (OVMF, minhv, kernel) -> /init main, TSC / 32")
	}
	/^rmpopt: pass / && !($3 in seen) {
		seen[$3] = 1; sch = $3; sub(/:$/, "", sch)
		m = $0; sub(/.*min\/avg\/max /, "", m); split(m, p, "[/ ]")
		emit("rmpopt." sch ".avg", p[2], "tsc", "first pass on the RMP model: cycles per RMPOPT")
		m = $0; sub(/ cycles total.*/, "", m); sub(/.*RMPOPTs, /, "", m)
		emit("rmpopt." sch ".total", m, "tsc", "first pass on the RMP model: whole pass")
	}
	'
}

# run_one MODE TAG SMP CPU OPTS [EXTRA QEMU ARGS]: boot once, append figures.
run_one() {
	local efi=$1 dir=$2 mode=$3 tag=$4 smp=$5 cpu=$6 opts=$7
	shift 7
	local log=$dir/$mode-$tag.log extra=() to=300
	[ "$mode" = icount ] && extra=($icount)
	local mem=1024
	[ "$smp" -gt 64 ] && to=500 mem=2048
	[ "$mode" = icount ] && [ "$smp" -ge 64 ] && to=1200
	"$top/tests/boot/run-qemu.sh" --efi "$efi" --name "bench-$tag" \
		--mem $mem --smp "$smp" --cpu "$cpu" --opts "$opts" --timeout $to \
		--log "$log" -- "${extra[@]+"${extra[@]}"}" "$@" 2>/dev/null ||
		echo "bench: $mode $tag: boot ended with status $?" >&2
	parse_log "$log" "$mode" "$tag" "$opts"
	[ -s "$log.tsv" ] || echo "$mode $tag" >>"$dir/missing"
}

# parse_log LOG MODE TAG OPTS: LOG's figures into LOG.tsv; boots without
# bench=1, or with tests= (the mesh-only boots), contribute only their
# per-scenario (tagged) figures; the Linux boots (TAG linux-*) only linux.*
# (under minhv it would repeat the boot and IPI figures of the scenarios).
parse_log() {
	if [ "${3#exits-}" != "$3" ]; then
		parse "$1" "$2" "$3" | grep "^$2\.guest\." >"$1.tsv" || true
	elif [ "${3#linux-}" != "$3" ]; then
		parse "$1" "$2" "$3" | grep "^$2\.\(linux\|boot_prof\)\." >"$1.tsv" || true
	elif [ "${4#*bench=1}" != "$4" ] && [ "${4#*tests=}" = "$4" ]; then
		parse "$1" "$2" "$3" >"$1.tsv"
	else
		parse "$1" "$2" "$3" | grep -F ".$3	" >"$1.tsv" || true
	fi
}

# scenarios EFI DIR: every boot, $jobs at a time.
scenarios() {
	local efi=$1 dir=$2 big288=(-machine q35,kernel-irqchip=split
		-device intel-iommu,intremap=on,eim=on) pids=() n
	mkdir -p "$dir"
	rm -f "$dir"/*.tsv "$dir/missing"
	local list=()
	# The mesh at 64 CPUs under -icount, for instructions per IPI (and an
	# IPI/s): minutes of OVMF alone, so first (the longest boot) and only
	# in a full run. Plain TCG is no option here: 64 vCPU threads on 2
	# host cores did not finish the ping-pong rounds in 10 minutes.
	[ "$quick" = 0 ] && [ "$big" = 1 ] &&
		[ "$linux" = auto ] && list+=("icount n64-mesh 64 EPYC,+x2apic bench=1|tests=hello|ap_timeout_ms=2000")
	# The boot profile of the default run (built-in guest, default
	# options), with and without the boot self-tests.
	[ "$linux" != auto ] || list+=(
		"icount boot-default 4 EPYC,+x2apic loglevel=info"
		"icount boot-default-nost 4 EPYC,+x2apic selftests=off"
		"icount n4-par-noss 4 EPYC,+x2apic bench=1|pause_intercept=on"
		"icount n4-ser-ss 4 EPYC,+x2apic,+ss smp=serial|tests=hello"
		"tcg n4-par-noss 4 EPYC,+x2apic bench=1|pause_intercept=on"
		"tcg n4-ser-ss 4 EPYC,+x2apic,+ss smp=serial|tests=hello"
	)
	# 64 and 288 CPUs: plain TCG only (but the mesh above); under -icount
	# (one thread, vCPUs round-robin) OVMF alone took over 3 minutes at 64.
	if [ "$quick" = 0 ] && [ "$linux" = auto ]; then
		# Two big guests share 2 host cores: an AP's vCPU thread can wait
		# long for its turn, so give each AP 2 s (default 100 ms).
		list+=("tcg n64-par-ss 64 EPYC,+x2apic,+ss tests=hello|ap_timeout_ms=2000"
			"tcg n64-ser-noss 64 EPYC,+x2apic smp=serial|tests=hello|ap_timeout_ms=2000")
		[ "$big" = 1 ] && list+=(
			"tcg n288-par-ss 288 EPYC,+x2apic,+ss tests=hello|ap_timeout_ms=2000"
			"tcg n288-ser-noss 288 EPYC,+x2apic smp=serial|tests=hello|ap_timeout_ms=2000")
	fi
	for n in "${list[@]}"; do
		set -- $n
		local extra=()
		[ "$3" -gt 255 ] && extra=("${big288[@]}")
		run_one "$efi" "$dir" "$1" "$2" "$3" "$4" "${5//|/ }" \
			"${extra[@]+"${extra[@]}"}" &
		pids+=($!)
		if [ ${#pids[@]} -ge "$jobs" ]; then
			wait "${pids[0]}"
			pids=("${pids[@]:1}")
		fi
	done
	wait
	# A foreign guest's exits: --exits, or a full or quick run.
	if [ "$linux" = exits ] || [ "$linux" = auto ]; then
		run_exits "$efi" "$dir"
	fi
	# The Linux boot: --linux, or a full run.
	if [ "$linux" = only ] || { [ "$linux" = auto ] && [ "$quick" = 0 ]; }; then
		run_linux "$efi" "$dir" || {
			echo "bench: linux: harness error" >&2
			echo "icount linux (harness error)" >>"$dir/missing"
		}
	fi
	# The PAUSE policies on Linux: --sched, or a full run.
	if [ "$linux" = sched ] || { [ "$linux" = auto ] && [ "$quick" = 0 ]; }; then
		[ "$dir" = "$out/base" ] || run_sched "$efi" "$dir"
	fi
	# Linux as its users run it: --linux, --linux-user or a full run; the
	# new build only (its figures compare minhv with bare QEMU already).
	if [ "$linux" = only ] || [ "$linux" = user ] ||
		{ [ "$linux" = auto ] && [ "$quick" = 0 ]; }; then
		[ "$dir" = "$out/base" ] || run_linux_user "$efi" "$dir"
	fi
	finish_figures "$efi" "$dir"
}

# run_exits EFI DIR: a foreign guest's exits under -icount (one vCPU), as
# tests/boot/70-exit-budget.t boots them: the guest prints "name TSC" per
# operation (guest.* figures, TSC / 32 = instructions). kvm-unit-tests
# missing (tools/kut-build.sh exit 3): that row is skipped, the reason said.
run_exits() {
	local efi=$1 dir=$2 log rc flat=$top/build/kut/src/x86/vmexit.flat
	log=$dir/icount-exits-mb.log
	"$top/tests/boot/run-qemu.sh" --efi "$efi" --name bench-exits-mb \
		--smp 1 --cpu EPYC,+x2apic --mem 1024 --timeout 300 --log "$log" \
		--opts 'guest=\mb\exits.bin selftests=off' \
		--file "$top/build/mb-bench/exits.bin:mb/exits.bin" \
		-- $icount >/dev/null 2>&1 ||
		echo "bench: icount exits-mb: boot ended with status $?" >&2
	parse_log "$log" icount exits-mb
	[ -s "$log.tsv" ] || echo "icount exits-mb" >>"$dir/missing"
	# vmexit.flat's boot takes minutes: a full or --exits run only.
	[ "$quick" = 0 ] || [ "$linux" = exits ] || return 0
	"$top/tools/kut-build.sh" >"$dir/kut-build.err" 2>&1 && rc=0 || rc=$?
	if [ $rc != 0 ] || [ ! -f "$flat" ]; then
		echo "bench: exits-kut: skipped: $(tail -n1 "$dir/kut-build.err")" >&2
		[ $rc = 3 ] || echo "icount exits-kut" >>"$dir/missing"
		return 0
	fi
	log=$dir/icount-exits-kut.log
	"$top/tests/boot/run-qemu.sh" --efi "$efi" --name bench-exits-kut \
		--smp 1 --cpu EPYC,+x2apic,+svm,+npt --mem 640 --timeout 600 \
		--log "$log" --file "$flat:kut/vmexit.flat" \
		--opts 'guest=\kut\vmexit.flat cmdline="cpuid inl_from_pmtimer tscdeadline" guest_mem=128M pool=192M watchdog_ms=0 guest_time_ms=0 vcpus=1 selftests=off' \
		-- $icount >/dev/null 2>&1 ||
		echo "bench: icount exits-kut: boot ended with status $?" >&2
	parse_log "$log" icount exits-kut
	[ -s "$log.tsv" ] || echo "icount exits-kut" >>"$dir/missing"
}

# run_linux EFI DIR: Linux boot time under -icount, stage 1 of
# tools/linux-run.sh (one vCPU, no interrupts): one boot under minhv (bench=1)
# and one of the same bzImage + initramfs on bare QEMU (-kernel/-initrd,
# SeaBIOS), both with the same command line. No kernel (tools/linux-kernel.sh exit 3): skipped, the reason said.
run_linux() {
	local efi=$1 dir=$2 kernel initrd rc khz cmdline log
	kernel=$(cd "$top" && tools/linux-kernel.sh 2>"$dir/linux-kernel.err") &&
		rc=0 || rc=$?
	if [ $rc != 0 ]; then
		echo "bench: linux: skipped: $(tail -n1 "$dir/linux-kernel.err")" >&2
		[ $rc = 3 ] && return 0
		return 1
	fi
	initrd=$(cd "$top" && tools/mkinitramfs.sh) || return 1
	# Both print paths relative to the top (LINUX_IMAGE= may be absolute).
	[ "${kernel#/}" != "$kernel" ] || kernel=$top/$kernel
	[ "${initrd#/}" != "$initrd" ] || initrd=$top/$initrd
	# As tools/linux-run.sh stage 1; minhv adds tsc_early_khz=<its rate>.
	cmdline="console=ttyS0 earlyprintk=serial,ttyS0 panic=-1 nokaslr printk.devkmsg=on acpi=off nolapic noapic idle=poll"
	# guest_time_ms is TSC time, 32 per instruction under -icount: the
	# decompressor alone (xz) takes over 100 s of it, the harness default.
	log=$dir/icount-linux-minhv.log
	"$top/tests/boot/run-qemu.sh" --efi "$efi" --name bench-linux --smp 1 \
		--mem 1024 --timeout 900 --log "$log" \
		--opts "bench=1 guest=\\linux\\vmlinuz initrd=\\linux\\initrd.gz cmdline=\"$cmdline\" guest_mem=256M pool=320M watchdog_ms=0 guest_time_ms=1800000" \
		--file "$kernel:linux/vmlinuz" --file "$initrd:linux/initrd.gz" \
		-- $icount 2>/dev/null ||
		echo "bench: icount linux-minhv: boot ended with status $?" >&2
	parse_log "$log" icount linux-minhv
	[ -s "$log.tsv" ] || echo "icount linux-minhv" >>"$dir/missing"
	# The boot profile of a 256 MiB Linux guest with default options and
	# with selftests=off: only minhv's part counts, so minhv stops the
	# kernel after 1 ms of guest time (the run then fails, as it should).
	local o
	for o in boot-linux:loglevel=info boot-linux-nost:selftests=off; do
		log=$dir/icount-${o%%:*}.log
		"$top/tests/boot/run-qemu.sh" --efi "$efi" --name "bench-${o%%:*}" \
			--smp 1 --mem 1024 --timeout 300 --log "$log" \
			--opts "${o#*:} guest=\\linux\\vmlinuz initrd=\\linux\\initrd.gz cmdline=\"$cmdline\" guest_mem=256M pool=320M guest_time_ms=1" \
			--file "$kernel:linux/vmlinuz" --file "$initrd:linux/initrd.gz" \
			-- $icount >/dev/null 2>&1 || true
		parse_log "$log" icount "${o%%:*}" "${o#*:}"
		[ -s "$log.tsv" ] || echo "icount ${o%%:*}" >>"$dir/missing"
	done
	# Bare: the same command line, tsc_early_khz included (the rate minhv
	# measured; the kernel would calibrate against the PIT otherwise).
	khz=$(sed -n 's/^linux: \(tsc_early_khz=[0-9]*\) appended.*/\1/p' "$log" | head -n1)
	log=$dir/icount-linux-bare.log
	timeout -k 5 600 qemu-system-x86_64 -machine q35 -accel tcg \
		-cpu EPYC,+x2apic -smp 1 -m 256 $icount \
		-kernel "$kernel" -initrd "$initrd" \
		-append "$cmdline${khz:+ $khz}" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-display none -no-reboot -nic none -serial "file:$log" \
		-monitor none </dev/null 2>/dev/null && rc=0 || rc=$?
	# /init passed: isa-debug-exit value 0, QEMU status 1.
	[ $rc = 1 ] || echo "bench: icount linux-bare: QEMU exited with $rc" >&2
	parse_log "$log" icount linux-bare
	[ -s "$log.tsv" ] || echo "icount linux-bare" >>"$dir/missing"
}

# run_sched EFI DIR: the PAUSE policies (issue 27) on /init's workload under
# -icount: 4 vCPUs on 2 CPUs (2x) with pause_yield=none, any, directed;
# 2 vCPUs on 2 CPUs (1x) with the defaults and with pause_intercept=off.
# Each boot's figures are tagged x2-none etc.; sched_ratios adds the ratios.
run_sched() {
	local efi=$1 dir=$2 kernel initrd rc cmdline spec tag smp vcpus opt log
	local mode=icount accel=$icount
	# SCHED_TCG=1: plain (MTTCG) TCG instead, tcg.sched.* figures (host
	# time through the TSC: noisy, take ratios of one run only).
	if [ "${SCHED_TCG:-0}" = 1 ]; then
		mode=tcg accel=
	fi
	kernel=$(cd "$top" && tools/linux-kernel.sh 2>"$dir/linux-kernel.err") &&
		rc=0 || rc=$?
	if [ $rc != 0 ]; then
		echo "bench: sched: skipped: $(tail -n1 "$dir/linux-kernel.err")" >&2
		[ $rc = 3 ] && return 0
		return 1
	fi
	initrd=$(cd "$top" && tools/mkinitramfs.sh) || return 1
	[ "${kernel#/}" != "$kernel" ] || kernel=$top/$kernel
	[ "${initrd#/}" != "$initrd" ] || initrd=$top/$initrd
	# As tools/linux-run.sh stage 3, without the stage checks.
	cmdline="console=ttyS0 earlyprintk=serial,ttyS0 panic=-1 nokaslr printk.devkmsg=on noapic tsc=reliable minhv.work=${SCHED_WORK:-12}"
	for spec in "x2-none 2 4 pause_yield=none" "x2-any 2 4 pause_yield=any" \
		"x2-directed 2 4 pause_yield=directed" "x1-default 2 2 -" \
		"x1-nointercept 2 2 pause_intercept=off"; do
		set -- $spec
		tag=$1 smp=$2 vcpus=$3 opt=${4#-}
		log=$dir/$mode-sched-$tag.log
		rm -f "$log.tsv"
		"$top/tests/boot/run-qemu.sh" --efi "$efi" --name "bench-sched-$tag" \
			--smp "$smp" --mem 1024 --timeout 1800 --log "$log" \
			--opts "guest=\\linux\\vmlinuz initrd=\\linux\\initrd.gz cmdline=\"$cmdline\" guest_mem=256M pool=320M watchdog_ms=0 guest_time_ms=3600000 vcpus=$vcpus $opt" \
			--file "$kernel:linux/vmlinuz" --file "$initrd:linux/initrd.gz" \
			-- $accel 2>/dev/null ||
			echo "bench: $mode sched $tag: boot ended with status $?" >&2
		parse_log "$log" "$mode" "$tag" "$opt"
	done
	sched_ratios "$dir" "$mode" >"$dir/$mode-sched-ratio.log.tsv"
}

# sched_ratios DIR [MODE]: issue 27's ratios from the run_sched figures in
# DIR (MODE icount, the default, or tcg).
sched_ratios() {
	cat "$1"/"${2:-icount}"-sched-*.log.tsv 2>/dev/null | awk -F'\t' -v m="${2:-icount}" '
	$1 ~ /\.sched\.linux_work\./ { k = $1; sub(/.*\./, "", k); w[k] = $2 }
	function ratio(name, a, b, what) {
		if ((a in w) && (b in w) && w[b] > 0)
			printf "%s.sched.%s\t%.3f\tx\t%s\n", m, name, w[a] / w[b], what
	}
	END {
		ratio("speedup.directed_vs_none.x2", "x2-none", "x2-directed", "workload time none / directed at 2x; target >= 1.25 (directed >= 20 % faster)")
		ratio("speedup.directed_vs_any.x2", "x2-any", "x2-directed", "workload time any / directed at 2x; target >= 1.0 (no slower)")
		ratio("cost.default_vs_nointercept.x1", "x1-default", "x1-nointercept", "workload time default / pause_intercept=off at 1x; target 1.0 (nothing measurable)")
	}'
}

# run_linux_user EFI DIR: tools/linux-stages.sh stage bench on bare QEMU and
# under minhv (LINUX_BENCH_VCPUS vCPUs, default 4), their figures into DIR,
# and a minhv/bare ratio for each figure both have (user_ratios).
run_linux_user() {
	local efi=$1 dir=$2 n t
	for n in ${LINUX_BENCH_VCPUS:-4}; do
		for t in bare minhv; do
			rm -f "$dir/linux-user-$t-n$n.tsv"
			(cd "$top" && LINUX_ICOUNT=${LINUX_ICOUNT-shift=5,align=off,sleep=off} \
				LINUX_TARGET=$t LINUX_STAGES=bench LINUX_VCPUS=$n \
				LINUX_EFI=$efi LINUX_OUT=$dir/linux-user \
				tools/linux-stages.sh) >"$dir/linux-user-$t-n$n.out" 2>&1 ||
				echo "bench: linux-user $t n$n: $(grep -m1 -E 'FAIL|error|^(linux-kernel|apt-deb|linux-userland):' \
					"$dir/linux-user-$t-n$n.out" || tail -n1 "$dir/linux-user-$t-n$n.out")" >&2
			[ -f "$dir/linux-user/bench-$t-n$n.tsv" ] &&
				cp "$dir/linux-user/bench-$t-n$n.tsv" "$dir/linux-user-$t-n$n.log.tsv"
		done
		user_ratios "$dir/linux-user-bare-n$n.log.tsv" \
			"$dir/linux-user-minhv-n$n.log.tsv" >"$dir/linux-user-ratio-n$n.log.tsv"
	done
}

# user_ratios BARE MINHV: for each figure in both, {tcg,icount}.linux.<figure>.ratio.nN
# = minhv / bare, with issue 25's target in the method column.
user_ratios() {
	[ -f "$1" ] && [ -f "$2" ] || return 0
	awk -F'\t' 'NR == FNR { b[$1] = $2; next }
	{
		k = $1; sub(/\.minhv\./, ".bare.", k)
		if (!(k in b) || b[k] <= 0) next
		r = $1; sub(/\.minhv\./, ".ratio.", r)
		t = ""
		if (r ~ /console_.*Bps/) t = "; target >= 0.5 (at least half of bare)"
		else if (r ~ /(forkexec|pipe)/ && r ~ /\.n4$/) t = "; target <= 1.3 with 4 vCPUs"
		else if (r ~ /boot_to_shell/) t = "; target <= 1.2"
		printf "%s\t%.3f\tx\tminhv / bare QEMU%s\n", r, $2 / b[k], t
	}' "$1" "$2"
}

# finish_figures EFI DIR: every boot's figures plus the sizes -> figures.tsv.
finish_figures() {
	local efi=$1 dir=$2
	{
		cat "$dir"/*.log.tsv
		printf 'size.minhv_efi\t%s\tbytes\tfile size\n' "$(stat -c %s "$efi")"
		printf 'size.guest_elf\t%s\tbytes\tfile size (symbols and debug info)\n' \
			"$(stat -c %s "$(dirname "$efi")/guest.elf")"
		# What minhv.efi embeds (a base revision may predate it).
		if [ -f "$(dirname "$efi")/guest.stripped.elf" ]; then
			printf 'size.guest_embedded\t%s\tbytes\tfile size of guest.stripped.elf, the guest in minhv.efi\n' \
				"$(stat -c %s "$(dirname "$efi")/guest.stripped.elf")"
		fi
	} | sort -u >"$dir/figures.tsv"
}

# json TSV: the figures as a JSON object keyed by name.
json() {
	awk -F'\t' 'BEGIN { print "{"; sep = "" }
	{ printf "%s  \"%s\": {\"value\": %s, \"unit\": \"%s\", \"method\": \"%s\"}",
		sep, $1, ($2 == "" ? "null" : $2), $3, $4; sep = ",\n" }
	END { print "\n}" }' "$1"
}

# table NEW [BASE]: the console table, with new/base ratios when BASE given.
table() {
	awk -F'\t' -v basef="${2:-}" '
	BEGIN { if (basef != "") while ((getline l < basef) > 0) {
		split(l, f, "\t"); b[f[1]] = f[2] } }
	{ r = ""
	  if (basef != "" && ($1 in b) && b[$1] > 0) r = sprintf("%8.3f", $2 / b[$1])
	  else if (basef != "") r = "       -"
	  printf "%-44s %14s %-6s %s\n", $1, $2, $3, r }' "$1"
}

# plot_one PNG YLABEL DAT TITLE [DAT TITLE]: one gnuplot PNG of the data
# files that hold points; none: the plot is skipped with a note (gnuplot
# would fail with "x range is invalid"). Status 1 only when gnuplot fails on
# data it had.
plot_one() {
	local png=$1 ylabel=$2 series=""
	shift 2
	while [ $# -ge 2 ]; do
		[ -s "$1" ] && series="$series${series:+, }\"$1\" w lp t \"$2\""
		shift 2
	done
	if [ -z "$series" ]; then
		rm -f "$png"
		echo "bench: plot ${png##*/} skipped: no data in this run" >&2
		return 0
	fi
	gnuplot <<EOF || { echo "bench: plot ${png##*/}: gnuplot failed" >&2; return 1; }
set terminal png size 800,500
set logscale y
set xlabel "CPUs"
set key left top
set output "$png"
set ylabel "$ylabel"
plot $series
EOF
	echo "bench: plot: $png"
}

# plots DIR: CPUs vs bring-up and CPUs vs MTRR rendezvous, if gnuplot exists
# (plain-TCG figures: a --linux or --quick run may have none of them).
plots() {
	local d=$1 rc=0
	command -v gnuplot >/dev/null || {
		echo "bench: gnuplot not installed (tools/setup.sh --bench): no PNGs" >&2
		return 0
	}
	awk -F'\t' '$1 ~ /^tcg\.smp\.bringup\.n[0-9]+-par/ {
		n = $1; sub(/.*\.n/, "", n); sub(/-.*/, "", n); print n, $2 }' \
		"$d/figures.tsv" | sort -n >"$d/bringup-par.dat"
	awk -F'\t' '$1 ~ /^tcg\.smp\.bringup\.n[0-9]+-ser/ {
		n = $1; sub(/.*\.n/, "", n); sub(/-.*/, "", n); print n, $2 }' \
		"$d/figures.tsv" | sort -n >"$d/bringup-ser.dat"
	awk -F'\t' '$1 ~ /^tcg\.mtrr\.rendezvous\.n[0-9]+-[a-z]+-ss/ {
		n = $1; sub(/.*\.n/, "", n); sub(/-.*/, "", n); print n, $2 }' \
		"$d/figures.tsv" | sort -n >"$d/mtrr-ss.dat"
	awk -F'\t' '$1 ~ /^tcg\.mtrr\.rendezvous\.n[0-9]+-[a-z]+-noss/ {
		n = $1; sub(/.*\.n/, "", n); sub(/-.*/, "", n); print n, $2 }' \
		"$d/figures.tsv" | sort -n >"$d/mtrr-noss.dat"
	plot_one "$d/bringup.png" \
		"bring-up (TSC ticks, plain TCG: emulator time, not hardware)" \
		"$d/bringup-par.dat" parallel "$d/bringup-ser.dat" serial || rc=1
	plot_one "$d/mtrr.png" \
		"MTRR rendezvous (TSC ticks, plain TCG: emulator time, not hardware)" \
		"$d/mtrr-ss.dat" self-snoop "$d/mtrr-noss.dat" "no self-snoop" || rc=1
	return $rc
}

# missing DIR: the boots of DIR that produced no figure (run_one,
# run_linux), one per line; nothing when every boot did.
missing() {
	[ -f "$1/missing" ] && cat "$1/missing"
	return 0
}

self_test() {
	local d
	d=$(mktemp -d)
	trap 'rm -rf "$d"' RETURN
	cat >"$d/log" <<'EOF'
smp: 4 of 4 CPUs online (x2APIC, parallel bring-up) in 12942 us (12943072 cycles), 6 SIPIs for 3 APs
bench-result: ipi fence=off ping_avg_cycles=14528 ping_min_cycles=11968 mesh_calls=200 mesh_cycles=1200000
bench-result: ipi-mesh fence=off cpus=4 ipis=200 tsc=1200000 tsc_khz=2000000
mtrr: WBINVD executed 8 times (2..2 per CPU), 208128 cycles in all
mtrr: cycles max/avg: entry 62208/37776 disable 1856/1856 write 12576/12576 enable 1184/1184 exit 98304/68712
[guest] bench: exit.cpuid n=200 min=9632 avg=9640 max=9700 tsc
bench: svm.exit_path vcpu=0 n=95111 min=4896 avg=6556 max=3725920 tsc
bench: svm.exit_path vcpu=1 n=9 min=1 avg=2 max=3 tsc
bench: boot efi_to_ebs=46033984 ebs_to_hv_main=1088 ebs_to_first_vmrun=4824990400 tsc
rmpopt: pass all-cores-at-once: 4 regions, 16 RMPOPTs, 41210752 cycles total; per RMPOPT min/avg/max 3936/6575974/12560192 (leader 0 x avg 0)
rmpopt: pass all-cores-at-once: 3 regions, 12 RMPOPTs, 1 cycles total; per RMPOPT min/avg/max 1/2/3 (leader 0 x avg 0)
bench: boot_tsc efi_main=1000 first_vmrun=2000 tsc
[user] xapic_read 22241
boot: profile total=3200 efi=320 guest_mem=2880 tsc
[user] PM timer port is 608
[user] [    1.5] cpuid 1
EOF
	parse "$d/log" icount n4 | cut -f1,2 >"$d/got"
	cat >"$d/want" <<'EOF'
icount.smp.bringup.n4	12943072
icount.ipi.pingpong_avg.fence_off	14528
icount.ipi.mesh_per_call.fence_off	6000
icount.ipi.mesh_ipi_per_s.fence_off.n4	333333
icount.ipi.mesh_insn_per_ipi.fence_off.n4	187.5
icount.mtrr.wbinvd.n4	8
icount.mtrr.rendezvous.n4	176128
icount.mtrr.critical.n4	15616
icount.exit.cpuid.avg	9640
icount.exit.cpuid.min	9632
icount.svm.exit_path.min	4896
icount.svm.exit_path.avg	6556
icount.boot.efi_to_ebs	46033984
icount.boot.ebs_to_first_vmrun	4824990400
icount.rmpopt.all-cores-at-once.avg	6575974
icount.rmpopt.all-cores-at-once.total	41210752
icount.guest.xapic_read	22241
icount.boot_prof.total.n4	100
icount.boot_prof.efi.n4	10
icount.boot_prof.guest_mem.n4	90
EOF
	diff -u "$d/want" "$d/got" || { echo "bench self-test: parse FAILED"; return 1; }
	# The Linux boot: under minhv (guest lines prefixed [user], a TSC
	# offset to take off the guest TSC of /init) and bare QEMU -kernel.
	cat >"$d/linux-minhv" <<'EOF'
bench: linux tsc_offset=-3200 tsc
[user] [    7.002109] minhv-init: hello from /init (pid 1)
[user] [    7.002290] minhv-init: tsc=123456789012345 at the start of main
bench: boot efi_to_ebs=46033984 ebs_to_hv_main=1088 ebs_to_first_vmrun=4824990400 tsc
bench: boot_tsc efi_main=23456789012345 first_vmrun=33456789012345 tsc
EOF
	printf '[    1.5] minhv-init: tsc=98765432101234 at the start of main\r\n' >"$d/linux-bare"
	{
		parse "$d/linux-minhv" icount linux-minhv | grep '^icount\.linux\.'
		parse "$d/linux-bare" icount linux-bare
		parse "$d/linux-bare" tcg linux-bare
	} | cut -f1,2 >"$d/got"
	cat >"$d/want" <<'EOF'
icount.linux.first_insn.minhv	312500000000
icount.linux.to_init.minhv	3125000000100
icount.linux.kernel_to_init.minhv	2812500000100
icount.linux.reset_to_init.minhv	3858024656735
icount.linux.to_init.bare	3086419753163
EOF
	diff -u "$d/want" "$d/got" || { echo "bench self-test: linux parse FAILED"; return 1; }
	# Linux as users run it: minhv / bare for the figures both have.
	printf 'tcg.linux.console_Bps.bare.n4\t40000\tB/s\tm\ntcg.linux.forkexec_ns.bare.n4\t200\tns\tm\ntcg.linux.pipe_rtt_ns.bare.n4\t10\tns\tm\n' >"$d/ub"
	printf 'tcg.linux.console_Bps.minhv.n4\t10000\tB/s\tm\ntcg.linux.forkexec_ns.minhv.n4\t300\tns\tm\n' >"$d/um"
	user_ratios "$d/ub" "$d/um" | cut -f1,2 >"$d/got"
	printf 'tcg.linux.console_Bps.ratio.n4\t0.250\ntcg.linux.forkexec_ns.ratio.n4\t1.500\n' >"$d/want"
	diff -u "$d/want" "$d/got" || { echo "bench self-test: linux user ratios FAILED"; return 1; }
	user_ratios "$d/ub" "$d/um" | grep -q 'forkexec_ns.ratio.n4.*target <= 1.3' ||
		{ echo "bench self-test: linux user ratio target FAILED"; return 1; }
	# The PAUSE policies: the workload time and PAUSE exits of a Linux
	# boot, and the ratios against issue 27's targets.
	cat >"$d/sched" <<'EOF'
[user] [   35.5] minhv-init: work: 8 threads x 12 rounds (50 mutex, a pipe ring, fork+exec every 4): 24 fork+exec, tsc=300000
svm: guest user exits 1000: cpuid 1 vmmcall 0 ioio 2 msr 3 hlt 4 pause 500 npf 0 intr 5 nmi 0 shutdown 0 svm-insn 0 other 0; io dropped 0, msr #GP 0
EOF
	parse "$d/sched" icount x2-none | cut -f1,2 >"$d/got"
	printf 'icount.sched.linux_work.x2-none\t300000\nicount.sched.linux_pause_exits.x2-none\t500\n' >"$d/want"
	diff -u "$d/want" "$d/got" || { echo "bench self-test: sched parse FAILED"; return 1; }
	printf 'icount.sched.linux_work.x2-none\t300\ttsc\tm\n' >"$d/icount-sched-x2-none.log.tsv"
	printf 'icount.sched.linux_work.x2-any\t220\ttsc\tm\n' >"$d/icount-sched-x2-any.log.tsv"
	printf 'icount.sched.linux_work.x2-directed\t200\ttsc\tm\n' >"$d/icount-sched-x2-directed.log.tsv"
	printf 'icount.sched.linux_work.x1-default\t100\ttsc\tm\n' >"$d/icount-sched-x1-default.log.tsv"
	printf 'icount.sched.linux_work.x1-nointercept\t100\ttsc\tm\n' >"$d/icount-sched-x1-nointercept.log.tsv"
	sched_ratios "$d" | cut -f1,2 >"$d/got"
	printf 'icount.sched.speedup.directed_vs_none.x2\t1.500\nicount.sched.speedup.directed_vs_any.x2\t1.100\nicount.sched.cost.default_vs_nointercept.x1\t1.000\n' >"$d/want"
	diff -u "$d/want" "$d/got" || { echo "bench self-test: sched ratios FAILED"; return 1; }
	printf 'a\t10\ttsc\tm\nb\t3\ttsc\tm\n' >"$d/new"
	printf 'a\t5\ttsc\tm\n' >"$d/base"
	table "$d/new" "$d/base" | grep -q '^a .* 2.000$' &&
		table "$d/new" "$d/base" | grep -q '^b .* -$' ||
		{ echo "bench self-test: ratio FAILED"; return 1; }
	json "$d/new" | python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null ||
		json "$d/new" | grep -q '"a": {"value": 10,' ||
		{ echo "bench self-test: json FAILED"; return 1; }
	# Plots: none without data (a --linux run: skipped, status 0), both
	# with it.
	if command -v gnuplot >/dev/null; then
		mkdir -p "$d/p"
		printf 'icount.linux.first_insn.minhv\t1\tinsn\tm\n' >"$d/p/figures.tsv"
		plots "$d/p" 2>/dev/null && [ ! -e "$d/p/bringup.png" ] ||
			{ echo "bench self-test: plots without data FAILED"; return 1; }
		printf 'tcg.smp.bringup.n4-par-ss\t10\ttsc\tm\ntcg.smp.bringup.n64-par-ss\t20\ttsc\tm\ntcg.mtrr.rendezvous.n4-par-ss\t5\ttsc\tm\n' >"$d/p/figures.tsv"
		plots "$d/p" >/dev/null 2>&1 && [ -s "$d/p/bringup.png" ] &&
			[ -s "$d/p/mtrr.png" ] ||
			{ echo "bench self-test: plots FAILED"; return 1; }
	fi
	echo "bench self-test: ok"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--self-test) self_test; exit ;;
	--parse) parse "$2" "$3" "$4"; exit ;;
	--hw-image)
		# Real hardware: the same scenarios from a USB image; capture the
		# serial console, then: tools/bench.sh --parse LOG hw n<CPUs>-par-ss
		mkdir -p "$out"
		printf 'bench=1 pause_intercept=on\n' >"$out/bench.cfg"
		"$top/tools/mkimage.sh" "$top/build/minhv.efi" "$top/build/guest.elf" \
			"$out/minhv-bench.img" "$out/bench.cfg"
		exit ;;
	--report)
		# Re-parse the logs of the last run (no boots) and print the table.
		for l in "$out"/new/*.log; do
			b=${l##*/}; b=${b%.log}; m=${b%%-*}; t=${b#*-}
			o=$(grep -a -m1 '^options:' "$l" | tr -d '\r' || true)
			parse_log "$l" "$m" "$t" "$o"
		done
		finish_figures "$top/build/minhv.efi" "$out/new"
		json "$out/new/figures.tsv" >"$out/results.json"
		table "$out/new/figures.tsv"
		plots "$out/new" || exit 1
		[ -s "$out/new/figures.tsv" ] || exit 1
		exit 0 ;;
	--base) base=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--no-288) big=0; shift ;;
	--linux) linux=only; shift ;;
	--linux-user) linux=user; shift ;;
	--sched) linux=sched; shift ;;
	--exits) linux=exits; shift ;;
	*) echo "usage: $0 [--base REV] [--quick] [--no-288] [--linux] [--linux-user] [--exits] [--sched] | --self-test" >&2; exit 2 ;;
	esac
done

mkdir -p "$out"
start=$(date +%s)
scenarios "$top/build/minhv.efi" "$out/new"
json "$out/new/figures.tsv" >"$out/results.json"
if [ -n "$base" ]; then
	wt=$out/base-src
	rm -rf "$wt"
	git -C "$top" worktree prune
	git -C "$top" worktree add -f --detach "$wt" "$base" >/dev/null
	make -C "$wt" -j"$jobs" all >/dev/null
	# The base boots with the current harness (its own may lack --efi).
	scenarios "$wt/build/minhv.efi" "$out/base"
	json "$out/base/figures.tsv" >"$out/results-base.json"
	git -C "$top" worktree remove --force "$wt"
	echo "== minhv bench: figure, value, unit, new/base (base $base) =="
	table "$out/new/figures.tsv" "$out/base/figures.tsv"
else
	echo "== minhv bench: figure, value, unit (icount.*: -icount shift=5, 32 per instruction; tcg.*: plain TCG; neither is hardware cycles) =="
	table "$out/new/figures.tsv"
fi
rc=0
plots "$out/new" || rc=1
echo "bench: results in $out/results.json ($(($(date +%s) - start)) s)"
# The status says whether the figures were produced: every boot of this
# revision gave its figures (a Linux boot skipped for want of a kernel is
# not a failure) and every plot that had data was drawn.
if [ -n "$(missing "$out/new")" ]; then
	echo "bench: no figures from: $(missing "$out/new" | paste -sd, -)" >&2
	rc=1
fi
exit $rc
