/* MinHash signatures value-identical to datasketch's affine32 scheme, one C loop
 * per document: the first 4 bytes of each shingle's SHA-1 read little endian,
 * MurmurHash3's fmix32, then a*h + b (mod 2**32) per permutation and the minimum.
 *
 * signature(shingles, a, b) -> bytes
 *   shingles: any iterable of bytes; a, b: the permutation parameters as
 *   little-endian uint32 buffers of equal length.  Returns the signature as
 *   little-endian uint32 bytes (the empty set gives all 0xFFFFFFFF).
 * word_ngrams(joined, size, a, b) -> (bytes, int)
 *   the same for the word n-grams of a text, shingling included (below).
 *
 * Optional: setup.py builds it when a C compiler is present (with OpenSSL's
 * SHA-1 when its headers are, else the portable SHA-1 below); minhash.py falls
 * back to numpy otherwise.  Why C at all: hashlib.sha1() costs ~0.4 us per call
 * in CPython (context set-up, not hashing), which alone caps a 1,000-shingle
 * document at ~2,400 signatures/s.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#ifdef SIGKERNEL_OPENSSL
#include <openssl/sha.h>
#endif

static inline uint32_t rol(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static inline uint32_t load_be(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static void sha1_block(uint32_t h[5], const uint8_t *blk) {
    uint32_t w[80];
    for (int t = 0; t < 16; t++) w[t] = load_be(blk + 4 * t);
    for (int t = 16; t < 80; t++) w[t] = rol(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], tmp;
    for (int t = 0; t < 20; t++) { tmp = rol(a, 5) + ((b & c) | (~b & d)) + e + 0x5A827999u + w[t]; e = d; d = c; c = rol(b, 30); b = a; a = tmp; }
    for (int t = 20; t < 40; t++) { tmp = rol(a, 5) + (b ^ c ^ d) + e + 0x6ED9EBA1u + w[t]; e = d; d = c; c = rol(b, 30); b = a; a = tmp; }
    for (int t = 40; t < 60; t++) { tmp = rol(a, 5) + ((b & c) | (b & d) | (c & d)) + e + 0x8F1BBCDCu + w[t]; e = d; d = c; c = rol(b, 30); b = a; a = tmp; }
    for (int t = 60; t < 80; t++) { tmp = rol(a, 5) + (b ^ c ^ d) + e + 0xCA62C1D6u + w[t]; e = d; d = c; c = rol(b, 30); b = a; a = tmp; }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

/* The first eight digest bytes. */
static void sha1_prefix8(const uint8_t *data, Py_ssize_t len, uint8_t out[8]) {
#ifdef SIGKERNEL_OPENSSL
    /* OpenSSL's one-shot SHA1 (SHA-NI where the CPU has it), without the EVP
     * context that makes hashlib.sha1 cost ~0.5 us per call. */
    unsigned char md[SHA_DIGEST_LENGTH];
    SHA_CTX ctx; /* the low-level calls: SHA1() goes through EVP fetching in OpenSSL 3 */
    SHA1_Init(&ctx);
    SHA1_Update(&ctx, data, (size_t)len);
    SHA1_Final(md, &ctx);
    memcpy(out, md, 8);
    return;
#endif
    uint32_t h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
    uint8_t block[64];
    Py_ssize_t i = 0;
    for (; i + 64 <= len; i += 64) sha1_block(h, data + i);
    size_t rem = (size_t)(len - i);
    memcpy(block, data + i, rem);
    block[rem++] = 0x80;
    if (rem > 56) {
        memset(block + rem, 0, 64 - rem);
        sha1_block(h, block);
        rem = 0;
    }
    memset(block + rem, 0, 56 - rem);
    uint64_t bits = (uint64_t)len * 8u;
    for (int k = 0; k < 8; k++) block[63 - k] = (uint8_t)(bits >> (8 * k));
    sha1_block(h, block);
    for (int k = 0; k < 4; k++) {
        out[k] = (uint8_t)(h[0] >> (24 - 8 * k));
        out[4 + k] = (uint8_t)(h[1] >> (24 - 8 * k));
    }
}

static inline uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* The first four digest bytes, read little endian (datasketch's sha1_hash32). */
static uint32_t sha1_hash32(const uint8_t *data, Py_ssize_t len) {
    uint8_t d[8];
    sha1_prefix8(data, len, d);
    return le32(d);
}

static inline uint32_t fmix32(uint32_t h) {
    h ^= h >> 16; h *= 0x85EBCA6Bu; h ^= h >> 13; h *= 0xC2B2AE35u; h ^= h >> 16;
    return h;
}

/* The inner loop: compiled for AVX2 and for the baseline, chosen at run time. */
#if defined(__GNUC__) && defined(__x86_64__) && defined(__GLIBC__)
/* ifunc dispatch needs glibc; elsewhere the baseline build is used. */
__attribute__((target_clones("avx2", "default")))
#endif
static void update(uint32_t *restrict mins, const uint32_t *restrict a, const uint32_t *restrict b,
                   Py_ssize_t n, const uint32_t *restrict hv, Py_ssize_t count) {
    for (Py_ssize_t j = 0; j < count; j++) {
        uint32_t h = hv[j];
        for (Py_ssize_t p = 0; p < n; p++) {
            uint32_t v = a[p] * h + b[p];
            mins[p] = v < mins[p] ? v : mins[p];
        }
    }
}

#define BATCH 64

static PyObject *signature(PyObject *self, PyObject *args) {
    PyObject *shingles;
    Py_buffer abuf, bbuf;
    if (!PyArg_ParseTuple(args, "Oy*y*", &shingles, &abuf, &bbuf)) return NULL;
    PyObject *result = NULL, *it = NULL, *item;
    uint32_t *mins = NULL, *a = NULL, *b = NULL;
    if (abuf.len != bbuf.len || abuf.len % 4 != 0 || abuf.len == 0) {
        PyErr_SetString(PyExc_ValueError, "a and b must be equal, non-empty uint32 buffers");
        goto done;
    }
    Py_ssize_t n = abuf.len / 4;
    mins = PyMem_Malloc(n * 4);
    a = PyMem_Malloc(n * 4);
    b = PyMem_Malloc(n * 4);
    if (!mins || !a || !b) { PyErr_NoMemory(); goto done; }
    memcpy(a, abuf.buf, n * 4);
    memcpy(b, bbuf.buf, n * 4);
    for (Py_ssize_t p = 0; p < n; p++) mins[p] = 0xFFFFFFFFu;
    it = PyObject_GetIter(shingles);
    if (!it) goto done;
    uint32_t hv[BATCH];
    Py_ssize_t count = 0;
    while ((item = PyIter_Next(it))) {
        if (!PyBytes_Check(item)) {
            Py_DECREF(item);
            PyErr_SetString(PyExc_TypeError, "shingles must be bytes");
            goto done;
        }
        hv[count++] = fmix32(sha1_hash32((const uint8_t *)PyBytes_AS_STRING(item), PyBytes_GET_SIZE(item)));
        Py_DECREF(item);
        if (count == BATCH) { update(mins, a, b, n, hv, count); count = 0; }
    }
    if (PyErr_Occurred()) goto done;
    if (count) update(mins, a, b, n, hv, count);
#if PY_BIG_ENDIAN
    for (Py_ssize_t p = 0; p < n; p++) { uint32_t x = mins[p]; mins[p] = (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24); }
#endif
    result = PyBytes_FromStringAndSize((const char *)mins, n * 4);
done:
    Py_XDECREF(it);
    PyMem_Free(mins);
    PyMem_Free(a);
    PyMem_Free(b);
    PyBuffer_Release(&abuf);
    PyBuffer_Release(&bbuf);
    return result;
}

/* One word n-gram: where it starts in the joined text, its length, and the first
 * eight bytes of its SHA-1 (the key of the table that counts distinct n-grams). */
typedef struct {
    uint64_t key;
    Py_ssize_t off, len;
} gram_t;

static inline int same_gram(const uint8_t *s, const gram_t *p, const gram_t *q) {
    return p->key == q->key && p->len == q->len && memcmp(s + p->off, s + q->off, (size_t)p->len) == 0;
}

/* word_ngrams(joined, size, a, b) -> (bytes, int): the signature of the set of
 * size-word n-grams of the words in ``joined`` (UTF-8, one blank between words,
 * as " ".join(words).encode()) and the number of distinct n-grams: exactly
 * signature(text.shingles(words, kind="word", size=size)) and the set's length,
 * without building the set in Python.  Duplicates hash to the same value, so the
 * minimum needs no dedup; the count uses an open-addressing table of the n-grams
 * (exact: n-grams with equal 64-bit keys are compared byte by byte).  A sort
 * instead cost as much as the Python set it replaces. */
static PyObject *word_ngrams(PyObject *self, PyObject *args) {
    Py_buffer tbuf, abuf, bbuf;
    Py_ssize_t size;
    if (!PyArg_ParseTuple(args, "y*ny*y*", &tbuf, &size, &abuf, &bbuf)) return NULL;
    PyObject *result = NULL;
    uint32_t *mins = NULL, *a = NULL, *b = NULL;
    Py_ssize_t *starts = NULL, *table = NULL;
    gram_t *grams = NULL;
    const uint8_t *s = tbuf.buf;
    Py_ssize_t len = tbuf.len, n = abuf.len / 4, nwords = 0, ngrams = 0, distinct = 0;
    if (abuf.len != bbuf.len || abuf.len % 4 != 0 || abuf.len == 0) {
        PyErr_SetString(PyExc_ValueError, "a and b must be equal, non-empty uint32 buffers");
        goto done;
    }
    if (size < 1) {
        PyErr_SetString(PyExc_ValueError, "size must be >= 1");
        goto done;
    }
    if (len > 0 && (s[0] == ' ' || s[len - 1] == ' ')) {
        PyErr_SetString(PyExc_ValueError, "words must be joined by single blanks");
        goto done;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (s[i] == ' ') {
            if (s[i + 1] == ' ') { /* s[len - 1] is no blank, so i + 1 < len */
                PyErr_SetString(PyExc_ValueError, "words must be joined by single blanks");
                goto done;
            }
            nwords++;
        }
    }
    nwords = len > 0 ? nwords + 1 : 0;
    ngrams = nwords == 0 ? 0 : (nwords <= size ? 1 : nwords - size + 1);
    mins = PyMem_Malloc(n * 4);
    a = PyMem_Malloc(n * 4);
    b = PyMem_Malloc(n * 4);
    starts = PyMem_Malloc((nwords + 1) * sizeof(Py_ssize_t));
    grams = PyMem_Malloc((ngrams + 1) * sizeof(gram_t));
    size_t slots = 16; /* a power of two, at least twice the n-grams: short probe runs */
    while (slots < 2 * (size_t)ngrams) slots <<= 1;
    table = PyMem_Calloc(slots, sizeof(Py_ssize_t)); /* 0: empty, else n-gram index + 1 */
    if (!mins || !a || !b || !starts || !grams || !table) { PyErr_NoMemory(); goto done; }
    memcpy(a, abuf.buf, n * 4);
    memcpy(b, bbuf.buf, n * 4);
    for (Py_ssize_t p = 0; p < n; p++) mins[p] = 0xFFFFFFFFu;
    /* starts[w]: where word w begins; starts[nwords] = len + 1, so word w ends at starts[w + 1] - 1. */
    Py_ssize_t w = 0;
    if (nwords) starts[w++] = 0;
    for (Py_ssize_t i = 0; i < len; i++)
        if (s[i] == ' ') starts[w++] = i + 1;
    starts[nwords] = len + 1;
    uint32_t hv[BATCH];
    Py_ssize_t count = 0;
    for (Py_ssize_t g = 0; g < ngrams; g++) {
        Py_ssize_t last = nwords <= size ? nwords - 1 : g + size - 1;
        Py_ssize_t off = starts[g], glen = starts[last + 1] - 1 - off;
        uint8_t d[8];
        sha1_prefix8(s + off, glen, d);
        grams[g].key = ((uint64_t)le32(d + 4) << 32) | le32(d);
        grams[g].off = off;
        grams[g].len = glen;
        int seen = 0;
        for (size_t slot = (size_t)grams[g].key & (slots - 1);; slot = (slot + 1) & (slots - 1)) {
            if (table[slot] == 0) { table[slot] = g + 1; distinct++; break; }
            if (same_gram(s, &grams[table[slot] - 1], &grams[g])) { seen = 1; break; }
        }
        if (seen) continue; /* its hash value is in the minimum already */
        hv[count++] = fmix32(le32(d));
        if (count == BATCH) { update(mins, a, b, n, hv, count); count = 0; }
    }
    if (count) update(mins, a, b, n, hv, count);
#if PY_BIG_ENDIAN
    for (Py_ssize_t p = 0; p < n; p++) { uint32_t x = mins[p]; mins[p] = (x >> 24) | ((x >> 8) & 0xFF00u) | ((x << 8) & 0xFF0000u) | (x << 24); }
#endif
    result = Py_BuildValue("(y#n)", (const char *)mins, n * 4, distinct);
done:
    PyMem_Free(mins);
    PyMem_Free(a);
    PyMem_Free(b);
    PyMem_Free(starts);
    PyMem_Free(grams);
    PyMem_Free(table);
    PyBuffer_Release(&tbuf);
    PyBuffer_Release(&abuf);
    PyBuffer_Release(&bbuf);
    return result;
}

static PyMethodDef methods[] = {
    {"signature", signature, METH_VARARGS, "signature(shingles, a, b) -> bytes (little-endian uint32)"},
    {"word_ngrams", word_ngrams, METH_VARARGS,
     "word_ngrams(joined, size, a, b) -> (bytes, int): signature and count of the word n-gram set"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "paperless_dedupe_hook.core._sigkernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__sigkernel(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
#ifdef SIGKERNEL_OPENSSL
    const char *sha1 = "openssl";
#else
    const char *sha1 = "portable";
#endif
    if (PyModule_AddStringConstant(m, "SHA1", sha1) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
