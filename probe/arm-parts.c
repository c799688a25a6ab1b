/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names of ARM cores by MIDR implementer and part number. The numbers are
 * the ones Linux uses in arch/arm64/include/asm/cputype.h (and
 * arch/arm/include/asm/cputype.h for 32-bit cores). Phytium 0x660-0x664
 * as in Phytium's kernel tree, 0x862 (FTC862, D3000) as in public CPU
 * feature tables. HiSilicon reports its Kirin 980 big cores (licensed
 * Cortex-A76) as 0x48/0xd40, as util-linux's lscpu notes.
 */
#include "cpu.h"

struct arm_part {
	int implementer, part;
	const char *name;
};

static const struct {
	int id;
	const char *name;
} implementers[] = {
	{ 0x41, "ARM" },     { 0x42, "Broadcom" }, { 0x43, "Cavium" },   { 0x46, "Fujitsu" },
	{ 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" }, { 0x50, "APM" },      { 0x51, "Qualcomm" },
	{ 0x53, "Samsung" }, { 0x61, "Apple" },    { 0x6d, "Microsoft" }, { 0x70, "Phytium" },
	{ 0xc0, "Ampere" },
};

static const struct arm_part parts[] = {
	/* ARM: 32-bit cores */
	{ 0x41, 0xb76, "ARM1176" },
	{ 0x41, 0xc05, "Cortex-A5" },
	{ 0x41, 0xc07, "Cortex-A7" },
	{ 0x41, 0xc08, "Cortex-A8" },
	{ 0x41, 0xc09, "Cortex-A9" },
	{ 0x41, 0xc0d, "Cortex-A12" },
	{ 0x41, 0xc0e, "Cortex-A17" },
	{ 0x41, 0xc0f, "Cortex-A15" },
	/* ARM: 64-bit cores */
	{ 0x41, 0xd03, "Cortex-A53" },
	{ 0x41, 0xd04, "Cortex-A35" },
	{ 0x41, 0xd05, "Cortex-A55" },
	{ 0x41, 0xd06, "Cortex-A65" },
	{ 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" },
	{ 0x41, 0xd09, "Cortex-A73" },
	{ 0x41, 0xd0a, "Cortex-A75" },
	{ 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse N1" },
	{ 0x41, 0xd0d, "Cortex-A77" },
	{ 0x41, 0xd0e, "Cortex-A76AE" },
	{ 0x41, 0xd40, "Neoverse V1" },
	{ 0x41, 0xd41, "Cortex-A78" },
	{ 0x41, 0xd42, "Cortex-A78AE" },
	{ 0x41, 0xd44, "Cortex-X1" },
	{ 0x41, 0xd46, "Cortex-A510" },
	{ 0x41, 0xd47, "Cortex-A710" },
	{ 0x41, 0xd48, "Cortex-X2" },
	{ 0x41, 0xd49, "Neoverse N2" },
	{ 0x41, 0xd4b, "Cortex-A78C" },
	{ 0x41, 0xd4c, "Cortex-X1C" },
	{ 0x41, 0xd4d, "Cortex-A715" },
	{ 0x41, 0xd4e, "Cortex-X3" },
	{ 0x41, 0xd4f, "Neoverse V2" },
	{ 0x41, 0xd80, "Cortex-A520" },
	{ 0x41, 0xd81, "Cortex-A720" },
	{ 0x41, 0xd82, "Cortex-X4" },
	{ 0x41, 0xd84, "Neoverse V3" },
	{ 0x41, 0xd85, "Cortex-X925" },
	{ 0x41, 0xd87, "Cortex-A725" },
	{ 0x41, 0xd8e, "Neoverse N3" },
	/* Broadcom, Cavium */
	{ 0x42, 0x100, "Brahma-B53" },
	{ 0x42, 0x516, "Vulcan" },
	{ 0x43, 0x0a1, "ThunderX" },
	{ 0x43, 0x0a2, "ThunderX 81xx" },
	{ 0x43, 0x0a3, "ThunderX 83xx" },
	{ 0x43, 0x0af, "ThunderX2" },
	/* Fujitsu, HiSilicon */
	{ 0x46, 0x001, "A64FX" },
	{ 0x48, 0xd01, "TSV110 (Kunpeng 920)" },
	{ 0x48, 0xd40, "Cortex-A76" },
	/* NVIDIA, APM, Qualcomm */
	{ 0x4e, 0x003, "Denver" },
	{ 0x4e, 0x004, "Carmel" },
	{ 0x50, 0x000, "X-Gene" },
	{ 0x51, 0x001, "Oryon" },
	{ 0x51, 0x200, "Kryo" },
	{ 0x51, 0x800, "Kryo 2xx Gold / Falkor V1" },
	{ 0x51, 0x801, "Kryo 2xx Silver" },
	{ 0x51, 0x802, "Kryo 3xx Gold" },
	{ 0x51, 0x803, "Kryo 3xx Silver" },
	{ 0x51, 0x804, "Kryo 4xx Gold" },
	{ 0x51, 0x805, "Kryo 4xx Silver" },
	{ 0x51, 0xc00, "Falkor" },
	/* Apple */
	{ 0x61, 0x022, "M1 Icestorm" },
	{ 0x61, 0x023, "M1 Firestorm" },
	{ 0x61, 0x024, "M1 Pro Icestorm" },
	{ 0x61, 0x025, "M1 Pro Firestorm" },
	{ 0x61, 0x028, "M1 Max Icestorm" },
	{ 0x61, 0x029, "M1 Max Firestorm" },
	{ 0x61, 0x032, "M2 Blizzard" },
	{ 0x61, 0x033, "M2 Avalanche" },
	{ 0x61, 0x034, "M2 Pro Blizzard" },
	{ 0x61, 0x035, "M2 Pro Avalanche" },
	{ 0x61, 0x038, "M2 Max Blizzard" },
	{ 0x61, 0x039, "M2 Max Avalanche" },
	/* Microsoft (a Neoverse N2 under its own implementer code) */
	{ 0x6d, 0xd49, "Azure Cobalt 100" },
	/* Phytium */
	{ 0x70, 0x660, "FTC660" },
	{ 0x70, 0x661, "FTC661" },
	{ 0x70, 0x662, "FTC662" },
	{ 0x70, 0x663, "FTC663" },
	{ 0x70, 0x664, "FTC664" },
	{ 0x70, 0x862, "FTC862" },
	/* Ampere */
	{ 0xc0, 0xac3, "Ampere-1" },
	{ 0xc0, 0xac4, "Ampere-1A" },
};

const char *arm_implementer_name(int implementer)
{
	for (size_t i = 0; i < ARRAY_SIZE(implementers); i++)
		if (implementers[i].id == implementer)
			return implementers[i].name;
	return NULL;
}

const char *arm_part_name(int implementer, int part)
{
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (parts[i].implementer == implementer && parts[i].part == part)
			return parts[i].name;
	return NULL;
}

char *arm_model_name(const struct midr *m, bool *known)
{
	const char *vendor = arm_implementer_name(m->implementer);
	const char *part = arm_part_name(m->implementer, m->part);

	*known = vendor && part;
	if (!vendor)
		return xasprintf("implementer 0x%02x part 0x%03x", (unsigned)m->implementer, (unsigned)m->part);
	if (!part)
		return xasprintf("%s part 0x%03x", vendor, (unsigned)m->part);
	if (m->implementer == 0x41)
		return xstrdup(part);
	return xasprintf("%s %s", vendor, part);
}
