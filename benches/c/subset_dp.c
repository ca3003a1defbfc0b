/* subset_dp.c -- C baseline for "Prime Time" six-card hands (rank faces, + - * /).
 *
 * Classic subset DP with sharing between hands: every distinct sorted
 * sub-multiset of card values (size 1..6) gets its full value set computed
 * exactly once (memoised in an open-addressing hash table keyed by the
 * packed sorted multiset), as the union over all unordered splits {X, Y} of
 * a+b, a*b, a-b, b-a, a/b, b/a (exact divisions only) for a in V(X), b in V(Y).
 * Sets are sorted, deduplicated int64 arrays.
 *
 * DEDUP=1 (default): candidates are deduplicated with a bitmap over the value
 *   range (|v| <= 13^6 < 2^23), the distinct values are then LSD-radix sorted.
 * DEDUP=0: all candidates are appended to a buffer, LSD-radix sorted, and
 *   adjacent duplicates dropped (pure sorted-array version).
 *
 * Input: one hand per line, six card values 1..13 (anything after the
 * sixth number on the line is ignored). Output: per-hand prime count (<= 97)
 * to the file given as argv[2] (optional), statistics on stderr.
 *
 * gcc -O2 -o subset_dp subset_dp.c ; ./subset_dp hands.txt counts.txt
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#ifndef DEDUP
#define DEDUP 1
#endif

typedef int64_t i64;

#define OFF   (1 << 23)          /* bias: values in (-2^23, 2^23) */
#define RANGE (1 << 24)

/* ---------- memo table ---------- */
typedef struct { uint32_t key; uint32_t n; i64 *v; } Entry;
#define HBITS 17
#define HSIZE (1u << HBITS)
static Entry table[HSIZE];
static long n_sets = 0, n_sets_by_size[7];
static long long stored_values = 0;
static int keep_top = 0;              /* do not keep the size-6 sets by default */

/* key: sorted values, 4 bits each, smallest in the lowest nibble; 0 = padding */
static uint32_t pack(const int *c, int k) {
    uint32_t key = 0;
    for (int i = k - 1; i >= 0; i--) key = (key << 4) | (uint32_t)c[i];
    return key;
}

static Entry *lookup(uint32_t key) {
    uint32_t h = (key * 2654435761u) >> (32 - HBITS);
    while (table[h].key != 0 && table[h].key != key) h = (h + 1) & (HSIZE - 1);
    return &table[h];
}

/* ---------- scratch ---------- */
static i64 *cand;  static size_t cand_cap;
static i64 *tmp;   static size_t tmp_cap;
#if DEDUP
static uint64_t *bits;
#endif

static void grow(i64 **p, size_t *cap, size_t need) {
    if (need <= *cap) return;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    *p = realloc(*p, c * sizeof(i64));
    if (!*p) { perror("realloc"); exit(1); }
    *cap = c;
}

/* LSD radix sort of n values in (-2^23, 2^23): two passes of 12 bits */
static void radix_sort(i64 *a, size_t n) {
    if (n < 48) {                       /* insertion sort for tiny arrays */
        for (size_t i = 1; i < n; i++) {
            i64 x = a[i]; size_t j = i;
            while (j > 0 && a[j - 1] > x) { a[j] = a[j - 1]; j--; }
            a[j] = x;
        }
        return;
    }
    grow(&tmp, &tmp_cap, n);
    static size_t cnt[4096];
    i64 *src = a, *dst = tmp;
    for (int pass = 0; pass < 2; pass++) {
        int sh = 12 * pass;
        memset(cnt, 0, sizeof cnt);
        for (size_t i = 0; i < n; i++) cnt[((uint64_t)(src[i] + OFF) >> sh) & 4095]++;
        size_t s = 0;
        for (int d = 0; d < 4096; d++) { size_t t = cnt[d]; cnt[d] = s; s += t; }
        for (size_t i = 0; i < n; i++) dst[cnt[((uint64_t)(src[i] + OFF) >> sh) & 4095]++] = src[i];
        i64 *t = src; src = dst; dst = t;
    }
    /* after an even number of passes the result is back in a */
}

static size_t ncand;
#if DEDUP
#define EMIT(x) do { i64 _x = (x); uint64_t _u = (uint64_t)(_x + OFF);          \
        uint64_t _m = 1ull << (_u & 63);                                         \
        if (!(bits[_u >> 6] & _m)) { bits[_u >> 6] |= _m; cand[ncand++] = _x; } \
    } while (0)
#else
#define EMIT(x) (cand[ncand++] = (x))
#endif

static long long total_candidates = 0;

/* value set of the sorted multiset c[0..k-1] */
static Entry *values(const int *c, int k) {
    uint32_t key = pack(c, k);
    Entry *e = lookup(key);
    if (e->key == key) return e;

    if (k == 1) {
        e->key = key; e->n = 1; e->v = malloc(sizeof(i64)); e->v[0] = c[0];
        n_sets++; n_sets_by_size[1]++; stored_values++;
        return e;
    }

    /* distinct values and their multiplicities */
    int u[6], m[6], d = 0;
    for (int i = 0; i < k; i++) {
        if (d > 0 && u[d - 1] == c[i]) m[d - 1]++;
        else { u[d] = c[i]; m[d] = 1; d++; }
    }

    /* first gather the sub-results of every split (recursion may rehash nothing:
       the table is fixed-size, so entry pointers stay valid) */
    const Entry *L[64], *R[64]; int ns = 0;
    int x[6] = {0};
    for (;;) {
        /* next count vector x in mixed radix (m[i]+1) */
        int i = 0;
        while (i < d && x[i] == m[i]) { x[i] = 0; i++; }
        if (i == d) break;
        x[i]++;
        int sx = 0; for (int j = 0; j < d; j++) sx += x[j];
        if (sx == k) continue;                              /* Y empty */
        /* each unordered split once: x <=lex (m - x) */
        int cmp = 0;
        for (int j = d - 1; j >= 0 && cmp == 0; j--) {
            int y = m[j] - x[j];
            cmp = (x[j] < y) ? -1 : (x[j] > y) ? 1 : 0;
        }
        if (cmp > 0) continue;
        int a[6], b[6], na = 0, nb = 0;
        for (int j = 0; j < d; j++) {
            for (int t = 0; t < x[j]; t++) a[na++] = u[j];
            for (int t = 0; t < m[j] - x[j]; t++) b[nb++] = u[j];
        }
        L[ns] = values(a, na); R[ns] = values(b, nb); ns++;
    }
    e = lookup(key);                 /* (no rehash, but be explicit) */

    size_t bound = 0;
    for (int s = 0; s < ns; s++) bound += (size_t)L[s]->n * R[s]->n * 6;
    grow(&cand, &cand_cap, bound);
    ncand = 0;

    for (int s = 0; s < ns; s++) {
        const i64 *A = L[s]->v, *B = R[s]->v;
        size_t na = L[s]->n, nb = R[s]->n;
        for (size_t i = 0; i < na; i++) {
            i64 a = A[i];
            i64 aa = a < 0 ? -a : a;
            for (size_t j = 0; j < nb; j++) {
                i64 b = B[j];
                i64 bb = b < 0 ? -b : b;
                EMIT(a + b);
                EMIT(a * b);
                EMIT(a - b);
                EMIT(b - a);
                if (b != 0 && aa >= bb && a % b == 0) EMIT(a / b);
                else if (a == 0 && b != 0) EMIT(0);
                if (a != 0 && bb >= aa && b % a == 0) EMIT(b / a);
                else if (b == 0 && a != 0) EMIT(0);
            }
        }
    }
    total_candidates += ncand;

    size_t n;
#if DEDUP
    radix_sort(cand, ncand);
    for (size_t i = 0; i < ncand; i++) {           /* clear the bitmap */
        uint64_t uu = (uint64_t)(cand[i] + OFF);
        bits[uu >> 6] = 0;
    }
    n = ncand;
#else
    radix_sort(cand, ncand);
    n = 0;
    for (size_t i = 0; i < ncand; i++)
        if (n == 0 || cand[i] != cand[n - 1]) cand[n++] = cand[i];
#endif

    n_sets++; n_sets_by_size[k]++;
    if (k < 6 || keep_top) {
        e->key = key; e->n = (uint32_t)n;
        e->v = malloc(n * sizeof(i64));
        memcpy(e->v, cand, n * sizeof(i64));
        stored_values += n;
    } else {                         /* six-card set: not memoised (hands are distinct),
                                        returned in scratch, used before the next call */
        static Entry top; top.key = key; top.n = (uint32_t)n; top.v = cand;
        return &top;
    }
    return e;
}

static double now(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s hands.txt [counts_out.txt]\n", argv[0]); return 2; }
    double t0 = now();
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 1; }
    size_t cap = 32768, nh = 0;
    int (*hands)[6] = malloc(cap * sizeof *hands);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        int h[6];
        if (sscanf(line, "%d %d %d %d %d %d", &h[0], &h[1], &h[2], &h[3], &h[4], &h[5]) != 6) continue;
        qsort(h, 6, sizeof(int), cmp_int);
        if (nh == cap) { cap *= 2; hands = realloc(hands, cap * sizeof *hands); }
        memcpy(hands[nh++], h, sizeof h);
    }
    fclose(f);
    int *count = malloc(nh * sizeof(int));
#if DEDUP
    bits = calloc(RANGE / 64, sizeof(uint64_t));
#endif
    static const int primes[] = {2,3,5,7,11,13,17,19,23,29,31,37,41,43,47,53,59,61,67,71,73,79,83,89,97};
    double t1 = now();

    long long top_values = 0;
    size_t max_top = 0;
    for (size_t h = 0; h < nh; h++) {
        Entry *e = values(hands[h], 6);
        top_values += e->n;
        if (e->n > max_top) max_top = e->n;
        int c = 0;
        for (int p = 0; p < 25; p++) {        /* binary search each prime */
            size_t lo = 0, hi = e->n;
            while (lo < hi) { size_t mid = (lo + hi) / 2; if (e->v[mid] < primes[p]) lo = mid + 1; else hi = mid; }
            if (lo < e->n && e->v[lo] == primes[p]) c++;
        }
        count[h] = c;
    }
    double t2 = now();

    if (argc > 2) {
        FILE *o = fopen(argv[2], "w");
        for (size_t h = 0; h < nh; h++)
            fprintf(o, "%d %d %d %d %d %d %d\n", hands[h][0], hands[h][1], hands[h][2],
                    hands[h][3], hands[h][4], hands[h][5], count[h]);
        fclose(o);
    }
    fprintf(stderr, "DEDUP=%d hands=%zu read=%.3fs solve=%.3fs\n", DEDUP, nh, t1 - t0, t2 - t1);
    fprintf(stderr, "distinct sub-multisets computed: %ld (size1..6: %ld %ld %ld %ld %ld %ld)\n",
            n_sets, n_sets_by_size[1], n_sets_by_size[2], n_sets_by_size[3],
            n_sets_by_size[4], n_sets_by_size[5], n_sets_by_size[6]);
    fprintf(stderr, "values in six-card top sets: total %lld, max %zu; stored values (sizes 1..5): %lld; %s: %lld\n",
            top_values, max_top, stored_values, DEDUP ? "sum of set sizes over all computed sets" : "raw candidates generated", total_candidates);
    return 0;
}
