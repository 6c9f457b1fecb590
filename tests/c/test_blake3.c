/* BLAKE3 keyed hashing (runtime/blake3.c) against the official test vectors
 * (the BLAKE3 team's repository, its test vectors file, keyed_hash, first 32
 * bytes): input byte i is i mod 251, key "whats the Elvish word for friend".
 * The lengths cover an empty message, a partial block, one chunk less a
 * byte, exactly one chunk (no parent), one chunk and a byte (a parent over
 * two chunks) and the longest message the executor hashes (two full
 * chunks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "blake3.h"

static void check(size_t len, const char *want) {
  static const char key_text[] = "whats the Elvish word for friend";
  uint32_t key[8];
  uint8_t msg[HOLO_BLAKE3_MAX_LEN], d[32];
  char got[65];
  for (int i = 0; i < 8; i++)
    key[i] = (uint32_t)(uint8_t)key_text[4 * i] | (uint32_t)(uint8_t)key_text[4 * i + 1] << 8 |
             (uint32_t)(uint8_t)key_text[4 * i + 2] << 16 | (uint32_t)(uint8_t)key_text[4 * i + 3] << 24;
  for (size_t i = 0; i < len; i++)
    msg[i] = (uint8_t)(i % 251);
  holo__blake3_keyed(key, msg, len, d);
  for (int i = 0; i < 32; i++)
    sprintf(got + 2 * i, "%02x", d[i]);
  assert_string_equal(got, want);
}

static void official_keyed_vectors(void **st) {
  (void)st;
  check(0, "92b2b75604ed3c761f9d6f62392c8a9227ad0ea3f09573e783f1498a4ed60d26");
  check(1, "6d7878dfff2f485635d39013278ae14f1454b8c0a3a2d34bc1ab38228a80c95b");
  check(1023, "c951ecdf03288d0fcc96ee3413563d8a6d3589547f2c2fb36d9786470f1b9d6e");
  check(1024, "75c46f6f3d9eb4f55ecaaee480db732e6c2105546f1e675003687c31719c7ba4");
  check(1025, "357dc55de0c7e382c900fd6e320acc04146be01db6a8ce7210b7189bd664ea69");
  check(2048, "879cf1fa2ea0e79126cb1063617a05b6ad9d0b696d0d757cf053439f60a99dd1");
}

/* The label paths hash 32 and 64 bytes (one and two operands): one block,
 * partial and full. No official vector has those lengths, so check that a
 * changed byte anywhere, and a changed length, changes the digest. */
static void every_byte_counts(void **st) {
  (void)st;
  uint32_t key[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint8_t msg[64] = {0}, base[32], d[32], shorter[32];
  holo__blake3_keyed(key, msg, 64, base);
  holo__blake3_keyed(key, msg, 32, shorter);
  assert_memory_not_equal(base, shorter, 32);
  for (int i = 0; i < 64; i++) {
    msg[i] ^= 1;
    holo__blake3_keyed(key, msg, 64, d);
    assert_memory_not_equal(base, d, 32);
    msg[i] ^= 1;
  }
  key[7] ^= 0x80000000u;
  holo__blake3_keyed(key, msg, 64, d);
  assert_memory_not_equal(base, d, 32);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(official_keyed_vectors),
      cmocka_unit_test(every_byte_counts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
