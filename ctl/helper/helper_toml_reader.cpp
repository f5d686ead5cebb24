// The helper's helper.toml through toml++ (see helper_toml_reader.h). Nothing may leave this
// file as an exception: every failure becomes k->problem.
#include "helper/helper_toml_reader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace {

struct bad_value {
	std::string what;
	unsigned line;
};

char *dup(std::string_view s)
{
	char *p = static_cast<char *>(std::malloc(s.size() + 1));
	if (!p)
		throw std::bad_alloc();
	std::memcpy(p, s.data(), s.size());
	p[s.size()] = '\0';
	return p;
}

unsigned line_of(const toml::node &n)
{
	return n.source().begin.line;
}

// TOML forbids NUL anywhere; toml++ reads a NUL as the end of the text, which would drop
// whatever follows it without a word.
unsigned nul_line(const char *text, size_t len)
{
	const char *nul = static_cast<const char *>(std::memchr(text, '\0', len));
	if (!nul)
		return 0;
	unsigned line = 1;
	for (const char *p = text; p < nul; p++)
		line += *p == '\n';
	return line;
}

void take_channel(const toml::node &n, helper_kernel *k)
{
	const auto *s = n.as_string();
	if (!s || (s->get() != "stable" && s->get() != "testing"))
		throw bad_value{"[kernel] channel must be \"stable\" or \"testing\"", line_of(n)};
	k->channel = dup(s->get());
}

void take_signature(const toml::node &n, helper_kernel *k)
{
	const auto *b = n.as_boolean();
	if (!b)
		throw bad_value{"[kernel] require_signature must be true or false (not quoted)", line_of(n)};
	k->require_signature = b->get() ? 1 : 0;
}

void take_keys(const toml::node &n, helper_kernel *k)
{
	const auto *a = n.as_array();
	if (!a)
		throw bad_value{"[kernel] public_keys must be an array of strings", line_of(n)};
	k->has_public_keys = 1;
	for (const auto &item : *a) {
		const auto *s = item.as_string();
		if (!s)
			throw bad_value{"[kernel] public_keys must be an array of strings", line_of(item)};
		if (k->n_public_keys >= HELPER_TOML_MAX_KEYS)
			throw bad_value{"[kernel] public_keys holds more than 32 keys", line_of(item)};
		if (!s->get().empty())
			k->public_keys[k->n_public_keys++] = dup(s->get());
	}
}

void take_kernel(const toml::table &doc, helper_kernel *k)
{
	const toml::node *kernel = doc.get("kernel");
	if (!kernel)
		return;
	const toml::table *t = kernel->as_table();
	if (!t)
		throw bad_value{"kernel must be a table", line_of(*kernel)};
	if (const toml::node *n = t->get("channel"))
		take_channel(*n, k);
	if (const toml::node *n = t->get("require_signature"))
		take_signature(*n, k);
	if (const toml::node *n = t->get("public_keys"))
		take_keys(*n, k);
}

// Forgets the values (and the problem: free it first when one is set).
void clear(helper_kernel *k) noexcept
{
	std::free(k->channel);
	for (int i = 0; i < k->n_public_keys; i++)
		std::free(k->public_keys[i]);
	*k = helper_kernel{};
	k->require_signature = -1;
}

// The sentence for people. Never throws: it is called from exception handlers. Without
// memory for it the problem stays NULL and the caller words it.
void say(helper_kernel *k, const char *name, unsigned line, const char *what) noexcept
{
	clear(k);
	if (asprintf(&k->problem, "%s line %u: %s; signatures are required until it is fixed", name,
		     line, what) < 0)
		k->problem = nullptr;
}

} // namespace

extern "C" int helper_kernel_read(const char *text, size_t len, const char *name, helper_kernel *k)
{
	*k = helper_kernel{};
	k->require_signature = -1;
	try {
		if (unsigned line = nul_line(text, len)) {
			say(k, name, line, "a NUL byte, which TOML does not allow");
			return -1;
		}
		// toml++ skips a byte order mark, the reference reader refuses it: a file that is
		// not plain TOML to every reader relaxes nothing.
		if (len >= 3 && std::memcmp(text, "\xef\xbb\xbf", 3) == 0) {
			say(k, name, 1, "a UTF-8 byte order mark before the first setting, which plain TOML does not have");
			return -1;
		}
		toml::table doc = toml::parse(std::string_view(text, len), std::string_view(name));
		take_kernel(doc, k);
		return 0;
	} catch (const toml::parse_error &err) {
		std::string_view why = err.description();
		char *what = nullptr;
		if (asprintf(&what, "not valid TOML (%.*s)", static_cast<int>(why.size()), why.data()) < 0)
			what = nullptr;
		say(k, name, err.source().begin.line, what ? what : "not valid TOML");
		std::free(what);
	} catch (const bad_value &bad) {
		say(k, name, bad.line, bad.what.c_str());
	} catch (...) {
		clear(k); /* out of memory: the caller words it */
	}
	return -1;
}

extern "C" void helper_kernel_free(helper_kernel *k)
{
	std::free(k->problem);
	clear(k);
}
