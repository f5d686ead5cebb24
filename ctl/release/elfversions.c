/* Symbol versions defined and needed by one ELF file (release/elfversions.h), with libelf's
 * gelf API. */
#include "release/elfversions.h"
#include "release/elffacts.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"

/* Bounds against hostile chains: no real library defines or needs this many versions. */
#define VERSIONS_MAX 65536

static void add_def(struct elf_versions *v, const char *name)
{
	if (v->n_defs >= VERSIONS_MAX)
		return;
	v->defs = xrealloc(v->defs, (v->n_defs + 1) * sizeof *v->defs);
	v->defs[v->n_defs++] = xstrdup(name);
}

static void add_need(struct elf_versions *v, const char *file, const char *name)
{
	if (v->n_needs >= VERSIONS_MAX)
		return;
	v->needs = xrealloc(v->needs, (v->n_needs + 1) * sizeof *v->needs);
	v->needs[v->n_needs].file = xstrdup(file);
	v->needs[v->n_needs].name = xstrdup(name);
	v->n_needs++;
}

static int read_verdef(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh, uint64_t size,
		       struct elf_versions *v, const char *name, struct tb_error *e)
{
	int bounded = elf_section_bounded(elf, sh, size, name, e);
	if (bounded)
		return bounded;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!d)
		return elf_damaged(name, e);
	size_t off = 0;
	for (size_t i = 0; i < sh->sh_info && i < VERSIONS_MAX; i++) {
		GElf_Verdef vd;
		GElf_Verdaux va;
		if (off > INT_MAX || !gelf_getverdef(d, (int)off, &vd))
			return elf_damaged(name, e);
		size_t aux = off + vd.vd_aux;
		if (vd.vd_cnt > 0) {
			if (aux > INT_MAX || !gelf_getverdaux(d, (int)aux, &va))
				return elf_damaged(name, e);
			const char *vname = elf_strptr(elf, sh->sh_link, va.vda_name);
			if (vname && !(vd.vd_flags & VER_FLG_BASE))
				add_def(v, vname);
		}
		if (vd.vd_next == 0)
			break;
		off += vd.vd_next;
	}
	return TB_OK;
}

static void need_of(void *ctx, const char *file, const char *version)
{
	if (file)
		add_need(ctx, file, version);
}

static int read_elf(Elf *elf, uint64_t size, const char *name, struct elf_versions *v,
		    struct tb_error *e)
{
	memset(v, 0, sizeof *v);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		return TB_OK;
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh))
		return elf_damaged(name, e);
	v->is_elf = 1;
	int rc = TB_OK;
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn && !rc; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return elf_damaged(name, e);
		if (sh.sh_type == SHT_GNU_verdef)
			rc = read_verdef(elf, scn, &sh, size, v, name, e);
		else if (sh.sh_type == SHT_GNU_verneed)
			rc = elf_each_version_need(elf, scn, &sh, size, need_of, v, name, e);
	}
	return rc;
}

int elf_read_versions_memory(const char *name, const void *data, size_t len,
			     struct elf_versions *v, struct tb_error *e)
{
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory((char *)data, len);
	int rc = read_elf(elf, len, name, v, e);
	if (elf)
		elf_end(elf);
	return rc;
}

int elf_read_versions_file(const char *name, const char *path, struct elf_versions *v,
			   struct tb_error *e)
{
	memset(v, 0, sizeof *v);
	struct elf_file ef;
	int rc = elf_file_open(name, path, &ef, e);
	if (rc)
		return rc;
	rc = read_elf(ef.elf, ef.size, name, v, e);
	elf_file_close(&ef);
	return rc;
}

void elf_versions_free(struct elf_versions *v)
{
	for (size_t i = 0; i < v->n_defs; i++)
		free(v->defs[i]);
	for (size_t i = 0; i < v->n_needs; i++) {
		free(v->needs[i].file);
		free(v->needs[i].name);
	}
	free(v->defs);
	free(v->needs);
	memset(v, 0, sizeof *v);
}

int elf_versions_defines(const struct elf_versions *v, const char *name)
{
	for (size_t i = 0; i < v->n_defs; i++)
		if (!strcmp(v->defs[i], name))
			return 1;
	return 0;
}
