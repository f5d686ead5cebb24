/* minisign verification: public keys "Ed"+keyid+key, signatures "Ed"/"ED"+keyid+sig, a
 * trusted comment with its own (global) signature. All crypto is libcrypto's. */
#include "store/manifest.h"
#include "release/minisign.h"
#include "common/releasename.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/text.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include "base/lazy_crypto.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KEYID_LEN 8
#define PK_LEN 32
#define SIG_LEN 64
#define PREHASH_LEN 64
#define KEY_BLOB_LEN (2 + KEYID_LEN + PK_LEN)
#define SIG_BLOB_LEN (2 + KEYID_LEN + SIG_LEN)
#define SIG_FILE_MAX (64 * 1024)
#define KEY_FILE_MAX (64 * 1024)
/* The signed file is read whole for a pure Ed25519 signature; SHA256SUMS is far smaller. */
#define LEGACY_DATA_MAX (64u << 20)
#define MAX_KEYS 256

struct pubkey {
	unsigned char id[KEYID_LEN];
	unsigned char pk[PK_LEN];
};

struct signature {
	int prehashed; /* "ED": signed the BLAKE2b-512 of the file */
	unsigned char id[KEYID_LEN];
	unsigned char sig[SIG_LEN];
	char *trusted;  /* the trusted comment, without its prefix */
	unsigned char global[SIG_LEN];
};

/* Strict base64 (no whitespace, padding only at the end) into exactly want bytes. */
static int b64_decode_exact(const char *in, size_t len, unsigned char *out, size_t want)
{
	if (len == 0 || len % 4 || len / 4 * 3 > want + 2)
		return -1;
	size_t pad = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)in[i];
		if (c == '=') {
			if (i < len - 2)
				return -1;
			pad++;
		} else if (pad || !(isalnum(c) || c == '+' || c == '/')) {
			return -1;
		}
	}
	if (len / 4 * 3 - pad != want)
		return -1;
	unsigned char buf[128];
	if (len / 4 * 3 > sizeof buf)
		return -1;
	if (EVP_DecodeBlock(buf, (const unsigned char *)in, (int)len) != (int)(len / 4 * 3))
		return -1;
	memcpy(out, buf, want);
	return 0;
}

static void keyid_hex(const unsigned char id[KEYID_LEN], char out[2 * KEYID_LEN + 1])
{
	/* minisign shows the id as a little-endian number. */
	for (int i = 0; i < KEYID_LEN; i++)
		snprintf(out + 2 * i, 3, "%02X", id[KEYID_LEN - 1 - i]);
}

static int parse_pubkey(const char *b64, size_t len, struct pubkey *k)
{
	unsigned char blob[KEY_BLOB_LEN];
	if (b64_decode_exact(b64, len, blob, sizeof blob) < 0 || blob[0] != 'E' || blob[1] != 'd')
		return -1;
	memcpy(k->id, blob + 2, KEYID_LEN);
	memcpy(k->pk, blob + 2 + KEYID_LEN, PK_LEN);
	return 0;
}

/* A .pub file: an optional "untrusted comment:" line, then the key. */
static int parse_pubkey_file(char *text, struct pubkey *k)
{
	char *cursor = text, *line;
	while ((line = next_line(&cursor))) {
		char *s = trim(line);
		if (*s && strncmp(s, "untrusted comment:", 18))
			return parse_pubkey(s, strlen(s), k);
	}
	return -1;
}

static int pub_file_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return d->d_name[0] != '.' && n > 4 && !strcmp(d->d_name + n - 4, ".pub");
}

/* The trusted keys: public_key lines, then keys_dir/ *.pub in name order. */
static int load_keys(const struct config *cfg, struct pubkey *keys, size_t *n, struct tb_error *e)
{
	*n = 0;
	for (int i = 0; i < cfg->n_public_keys; i++) {
		char *copy = xstrdup(cfg->public_keys[i]);
		char *s = trim(copy);
		int bad = parse_pubkey(s, strlen(s), &keys[*n]) < 0;
		free(copy);
		if (bad)
			return tb_fail(e, TB_R_KEY_INVALID, "public_key \"%.80s\" in the configuration is not a minisign public key (RW…); fix that line",
				       cfg->public_keys[i]);
		(*n)++;
	}
	if (!cfg->keys_dir)
		return TB_OK;
	struct dirent **list;
	int count = scandir(cfg->keys_dir, &list, pub_file_name, alphasort);
	if (count < 0)
		return errno == ENOENT || errno == ENOTDIR
			       ? TB_OK
			       : tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot read keys_dir %s", cfg->keys_dir);
	int rc = TB_OK;
	for (int i = 0; i < count; i++) {
		if (rc == TB_OK && *n < MAX_KEYS) {
			char *path = path_join(cfg->keys_dir, list[i]->d_name);
			char *text = read_small_file(path, KEY_FILE_MAX, NULL);
			if (!text)
				rc = tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot read the public key %s", path);
			else if (parse_pubkey_file(text, &keys[*n]) < 0)
				rc = tb_fail(e, TB_R_KEY_INVALID, "%s is not a minisign public key file; replace or remove it", path);
			else
				(*n)++;
			free(text);
			free(path);
		}
		free(list[i]);
	}
	free(list);
	return rc;
}

static int parse_signature(char *text, struct signature *s)
{
	memset(s, 0, sizeof *s);
	char *cur = text;
	char *l1 = next_line(&cur), *l2 = next_line(&cur), *l3 = next_line(&cur), *l4 = next_line(&cur);
	if (!l4 || strncmp(l1, "untrusted comment:", 18) || strncmp(l3, "trusted comment: ", 17))
		return -1;
	unsigned char blob[SIG_BLOB_LEN];
	if (b64_decode_exact(l2, strlen(l2), blob, sizeof blob) < 0 || blob[0] != 'E' ||
	    (blob[1] != 'd' && blob[1] != 'D'))
		return -1;
	if (b64_decode_exact(l4, strlen(l4), s->global, SIG_LEN) < 0)
		return -1;
	s->prehashed = blob[1] == 'D';
	memcpy(s->id, blob + 2, KEYID_LEN);
	memcpy(s->sig, blob + 2 + KEYID_LEN, SIG_LEN);
	s->trusted = xstrdup(l3 + 17);
	return 0;
}

static int ed25519_ok(const unsigned char pk[PK_LEN], const unsigned char sig[SIG_LEN],
		      const unsigned char *msg, size_t len)
{
	EVP_PKEY *key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pk, PK_LEN);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok = key && ctx && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, key) == 1 &&
		 EVP_DigestVerify(ctx, sig, SIG_LEN, msg, len) == 1;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(key);
	return ok;
}

static int blake2b512_file(const char *path, unsigned char out[PREHASH_LEN])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok = ctx && EVP_DigestInit_ex(ctx, EVP_blake2b512(), NULL) == 1;
	unsigned char buf[1 << 15];
	while (ok) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ok = n == 0;
			break;
		}
		ok = EVP_DigestUpdate(ctx, buf, (size_t)n) == 1;
	}
	unsigned int len = 0;
	ok = ok && EVP_DigestFinal_ex(ctx, out, &len) == 1 && len == PREHASH_LEN;
	int saved = errno;
	EVP_MD_CTX_free(ctx);
	close(fd);
	errno = saved;
	return ok ? 0 : -1;
}

/* The trusted comment names tag:<prefix><version> (tag:mesa-2026.10.06) as one of its words. */
static int names_tag(const char *comment, const char *prefix, const char *version)
{
	char *want = xasprintf("tag:%s%s", prefix, version);
	size_t wl = strlen(want);
	int found = 0;
	for (const char *p = comment; *p && !found;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		const char *end = p;
		while (*end && !isspace((unsigned char)*end))
			end++;
		found = (size_t)(end - p) == wl && !strncmp(p, want, wl);
		p = end;
	}
	free(want);
	return found;
}

/* The version of the first tag:<prefix><version> word of the trusted comment, or NULL. */
static char *tagged_version(const char *comment, const char *prefix)
{
	char *want = xasprintf("tag:%s", prefix);
	size_t wl = strlen(want);
	char *found = NULL;
	for (const char *p = comment; *p;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		const char *end = p;
		while (*end && !isspace((unsigned char)*end))
			end++;
		if (!found && (size_t)(end - p) > wl && !strncmp(p, want, wl)) {
			char *v = strndup(p + wl, (size_t)(end - p) - wl);
			if (v && version_name_ok(v))
				found = v;
			else
				free(v);
		}
		p = end;
	}
	free(want);
	return found;
}

static int check_message(const struct pubkey *k, const struct signature *sig, const char *data_path,
			 const char *name, struct tb_error *e)
{
	if (sig->prehashed) {
		unsigned char h[PREHASH_LEN];
		if (blake2b512_file(data_path, h) < 0)
			return tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot read %s to check its signature", data_path);
		return ed25519_ok(k->pk, sig->sig, h, sizeof h) ? TB_OK : TB_EVERIFY;
	}
	size_t len;
	char *data = read_small_file(data_path, LEGACY_DATA_MAX, &len);
	if (!data)
		return tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot read %s to check its signature", data_path);
	int ok = ed25519_ok(k->pk, sig->sig, (unsigned char *)data, len);
	free(data);
	return ok ? TB_OK : TB_EVERIFY;
}

int minisign_verify_file(const struct config *cfg, const char *data_path, const char *sig_path,
			 const char *version, struct tb_error *e)
{
	return minisign_verify_file_tag(cfg, data_path, sig_path, MESA_TAG_PREFIX, version, NULL, e);
}

static int verify_file(const struct config *cfg, const char *data_path, const char *sig_path,
		       const char *prefix, const char *version, char **signed_version,
		       char **trusted_out, struct tb_error *e);

int minisign_verify_file_tag(const struct config *cfg, const char *data_path, const char *sig_path,
			     const char *tag_prefix, const char *version, char **signed_version,
			     struct tb_error *e)
{
	return verify_file(cfg, data_path, sig_path, tag_prefix, version, signed_version, NULL, e);
}

int minisign_verified_comment(const struct config *cfg, const char *data_path, const char *sig_path,
			      const char *version, char **trusted, struct tb_error *e)
{
	return verify_file(cfg, data_path, sig_path, MESA_TAG_PREFIX, version, NULL, trusted, e);
}

static int verify_file(const struct config *cfg, const char *data_path, const char *sig_path,
		       const char *prefix, const char *version, char **signed_version,
		       char **trusted_out, struct tb_error *e)
{
	if (signed_version)
		*signed_version = NULL;
	if (trusted_out)
		*trusted_out = NULL;
	const char *name = strrchr(data_path, '/') ? strrchr(data_path, '/') + 1 : data_path;
	struct pubkey *keys = xcalloc(MAX_KEYS + CONFIG_MAX_KEYS, sizeof *keys);
	size_t n_keys = 0;
	struct signature sig = {0};
	char *text = NULL;
	int rc = load_keys(cfg, keys, &n_keys, e);
	if (rc != TB_OK)
		goto out;
	if (!n_keys) {
		/* Nothing to check against: fine unless signatures are required. */
		if (cfg->require_signature)
			rc = tb_fail(e, TB_R_SIGNATURE_MISSING,
				     "require_signature is set but no public key is configured; add public_key or a .pub file in %s",
				     cfg->keys_dir ? cfg->keys_dir : "keys_dir");
		goto out;
	}
	if (!sig_path) {
		rc = tb_fail(e, TB_R_SIGNATURE_MISSING, "%s of this release is not signed (no %s.minisig) but signatures are expected; refusing it",
			     name, name);
		goto out;
	}
	size_t len;
	text = read_small_file(sig_path, SIG_FILE_MAX, &len);
	if (!text) {
		rc = tb_fail_errno(e, TB_R_MANIFEST_INVALID, "cannot read the signature %s", sig_path);
		goto out;
	}
	if (strlen(text) != len || parse_signature(text, &sig) < 0) {
		rc = tb_fail(e, TB_R_SIGNATURE_INVALID, "the signature of %s is not a minisign signature file; refusing it", name);
		goto out;
	}
	const struct pubkey *key = NULL;
	for (size_t i = 0; i < n_keys && !key; i++)
		if (!memcmp(keys[i].id, sig.id, KEYID_LEN))
			key = &keys[i];
	char id[2 * KEYID_LEN + 1];
	keyid_hex(sig.id, id);
	if (!key) {
		rc = tb_fail(e, TB_R_SIGNATURE_UNTRUSTED, "%s is signed by key %s, which is not trusted; add its public key if you trust it, otherwise do not install this release",
			     name, id);
		goto out;
	}
	rc = check_message(key, &sig, data_path, name, e);
	if (rc != TB_OK) {
		rc = tb_fail(e, TB_R_SIGNATURE_INVALID, "the signature of %s does not verify with key %s: the file was changed after signing; refusing it",
			     name, id);
		goto out;
	}
	/* The global signature covers the signature and the trusted comment together. */
	size_t tl = strlen(sig.trusted);
	unsigned char *msg = xmalloc(SIG_LEN + tl);
	memcpy(msg, sig.sig, SIG_LEN);
	memcpy(msg + SIG_LEN, sig.trusted, tl);
	int global_ok = ed25519_ok(key->pk, sig.global, msg, SIG_LEN + tl);
	free(msg);
	if (!global_ok) {
		rc = tb_fail(e, TB_R_SIGNATURE_INVALID, "the trusted comment of the signature of %s does not verify with key %s; refusing it",
			     name, id);
		goto out;
	}
	if (version && !names_tag(sig.trusted, prefix, version))
		rc = tb_fail(e, TB_R_TAG_MISMATCH,
			     "the signature of %s was made for another release (trusted comment \"%.100s\", expected tag:%s%s); refusing it",
			     name, sig.trusted, prefix, version);
	else if (signed_version && !(*signed_version = tagged_version(sig.trusted, prefix)))
		rc = tb_fail(e, TB_R_TAG_MISMATCH,
			     "the signature of %s names no release (its trusted comment \"%.100s\" has no tag:%s<version>); refusing it",
			     name, sig.trusted, prefix);
	if (!rc && trusted_out) {
		*trusted_out = sig.trusted;
		sig.trusted = NULL;
	}
out:
	free(sig.trusted);
	free(text);
	free(keys);
	return rc;
}
