/* Size-check fixture (tools/check-size.mjs self-test; not built).
 * Not flagged: a table initializer, a struct, a compound literal and an attributed
 * anonymous struct (125+ lines each, none a function). */

static const int table[] = {
  0,
  1,
  2,
  3,
  4,
  5,
  6,
  7,
  8,
  9,
  10,
  11,
  12,
  13,
  14,
  15,
  16,
  17,
  18,
  19,
  20,
  21,
  22,
  23,
  24,
  25,
  26,
  27,
  28,
  29,
  30,
  31,
  32,
  33,
  34,
  35,
  36,
  37,
  38,
  39,
  40,
  41,
  42,
  43,
  44,
  45,
  46,
  47,
  48,
  49,
  50,
  51,
  52,
  53,
  54,
  55,
  56,
  57,
  58,
  59,
  60,
  61,
  62,
  63,
  64,
  65,
  66,
  67,
  68,
  69,
  70,
  71,
  72,
  73,
  74,
  75,
  76,
  77,
  78,
  79,
  80,
  81,
  82,
  83,
  84,
  85,
  86,
  87,
  88,
  89,
  90,
  91,
  92,
  93,
  94,
  95,
  96,
  97,
  98,
  99,
  100,
  101,
  102,
  103,
  104,
  105,
  106,
  107,
  108,
  109,
  110,
  111,
  112,
  113,
  114,
  115,
  116,
  117,
  118,
  119,
  120,
  121,
  122,
  123,
  124,
  125,
  126,
  127,
};

struct wide {
  int f0;
  int f1;
  int f2;
  int f3;
  int f4;
  int f5;
  int f6;
  int f7;
  int f8;
  int f9;
  int f10;
  int f11;
  int f12;
  int f13;
  int f14;
  int f15;
  int f16;
  int f17;
  int f18;
  int f19;
  int f20;
  int f21;
  int f22;
  int f23;
  int f24;
  int f25;
  int f26;
  int f27;
  int f28;
  int f29;
  int f30;
  int f31;
  int f32;
  int f33;
  int f34;
  int f35;
  int f36;
  int f37;
  int f38;
  int f39;
  int f40;
  int f41;
  int f42;
  int f43;
  int f44;
  int f45;
  int f46;
  int f47;
  int f48;
  int f49;
  int f50;
  int f51;
  int f52;
  int f53;
  int f54;
  int f55;
  int f56;
  int f57;
  int f58;
  int f59;
  int f60;
  int f61;
  int f62;
  int f63;
  int f64;
  int f65;
  int f66;
  int f67;
  int f68;
  int f69;
  int f70;
  int f71;
  int f72;
  int f73;
  int f74;
  int f75;
  int f76;
  int f77;
  int f78;
  int f79;
  int f80;
  int f81;
  int f82;
  int f83;
  int f84;
  int f85;
  int f86;
  int f87;
  int f88;
  int f89;
  int f90;
  int f91;
  int f92;
  int f93;
  int f94;
  int f95;
  int f96;
  int f97;
  int f98;
  int f99;
  int f100;
  int f101;
  int f102;
  int f103;
  int f104;
  int f105;
  int f106;
  int f107;
  int f108;
  int f109;
  int f110;
  int f111;
  int f112;
  int f113;
  int f114;
  int f115;
  int f116;
  int f117;
  int f118;
  int f119;
  int f120;
  int f121;
  int f122;
};

static const struct wide *const wide0 = &(struct wide){
  .f0 = 0,
  .f1 = 1,
  .f2 = 2,
  .f3 = 3,
  .f4 = 4,
  .f5 = 5,
  .f6 = 6,
  .f7 = 7,
  .f8 = 8,
  .f9 = 9,
  .f10 = 10,
  .f11 = 11,
  .f12 = 12,
  .f13 = 13,
  .f14 = 14,
  .f15 = 15,
  .f16 = 16,
  .f17 = 17,
  .f18 = 18,
  .f19 = 19,
  .f20 = 20,
  .f21 = 21,
  .f22 = 22,
  .f23 = 23,
  .f24 = 24,
  .f25 = 25,
  .f26 = 26,
  .f27 = 27,
  .f28 = 28,
  .f29 = 29,
  .f30 = 30,
  .f31 = 31,
  .f32 = 32,
  .f33 = 33,
  .f34 = 34,
  .f35 = 35,
  .f36 = 36,
  .f37 = 37,
  .f38 = 38,
  .f39 = 39,
  .f40 = 40,
  .f41 = 41,
  .f42 = 42,
  .f43 = 43,
  .f44 = 44,
  .f45 = 45,
  .f46 = 46,
  .f47 = 47,
  .f48 = 48,
  .f49 = 49,
  .f50 = 50,
  .f51 = 51,
  .f52 = 52,
  .f53 = 53,
  .f54 = 54,
  .f55 = 55,
  .f56 = 56,
  .f57 = 57,
  .f58 = 58,
  .f59 = 59,
  .f60 = 60,
  .f61 = 61,
  .f62 = 62,
  .f63 = 63,
  .f64 = 64,
  .f65 = 65,
  .f66 = 66,
  .f67 = 67,
  .f68 = 68,
  .f69 = 69,
  .f70 = 70,
  .f71 = 71,
  .f72 = 72,
  .f73 = 73,
  .f74 = 74,
  .f75 = 75,
  .f76 = 76,
  .f77 = 77,
  .f78 = 78,
  .f79 = 79,
  .f80 = 80,
  .f81 = 81,
  .f82 = 82,
  .f83 = 83,
  .f84 = 84,
  .f85 = 85,
  .f86 = 86,
  .f87 = 87,
  .f88 = 88,
  .f89 = 89,
  .f90 = 90,
  .f91 = 91,
  .f92 = 92,
  .f93 = 93,
  .f94 = 94,
  .f95 = 95,
  .f96 = 96,
  .f97 = 97,
  .f98 = 98,
  .f99 = 99,
  .f100 = 100,
  .f101 = 101,
  .f102 = 102,
  .f103 = 103,
  .f104 = 104,
  .f105 = 105,
  .f106 = 106,
  .f107 = 107,
  .f108 = 108,
  .f109 = 109,
  .f110 = 110,
  .f111 = 111,
  .f112 = 112,
  .f113 = 113,
  .f114 = 114,
  .f115 = 115,
  .f116 = 116,
  .f117 = 117,
  .f118 = 118,
  .f119 = 119,
  .f120 = 120,
  .f121 = 121,
  .f122 = 122,
};

static struct __attribute__((packed)) {
  char c0;
  char c1;
  char c2;
  char c3;
  char c4;
  char c5;
  char c6;
  char c7;
  char c8;
  char c9;
  char c10;
  char c11;
  char c12;
  char c13;
  char c14;
  char c15;
  char c16;
  char c17;
  char c18;
  char c19;
  char c20;
  char c21;
  char c22;
  char c23;
  char c24;
  char c25;
  char c26;
  char c27;
  char c28;
  char c29;
  char c30;
  char c31;
  char c32;
  char c33;
  char c34;
  char c35;
  char c36;
  char c37;
  char c38;
  char c39;
  char c40;
  char c41;
  char c42;
  char c43;
  char c44;
  char c45;
  char c46;
  char c47;
  char c48;
  char c49;
  char c50;
  char c51;
  char c52;
  char c53;
  char c54;
  char c55;
  char c56;
  char c57;
  char c58;
  char c59;
  char c60;
  char c61;
  char c62;
  char c63;
  char c64;
  char c65;
  char c66;
  char c67;
  char c68;
  char c69;
  char c70;
  char c71;
  char c72;
  char c73;
  char c74;
  char c75;
  char c76;
  char c77;
  char c78;
  char c79;
  char c80;
  char c81;
  char c82;
  char c83;
  char c84;
  char c85;
  char c86;
  char c87;
  char c88;
  char c89;
  char c90;
  char c91;
  char c92;
  char c93;
  char c94;
  char c95;
  char c96;
  char c97;
  char c98;
  char c99;
  char c100;
  char c101;
  char c102;
  char c103;
  char c104;
  char c105;
  char c106;
  char c107;
  char c108;
  char c109;
  char c110;
  char c111;
  char c112;
  char c113;
  char c114;
  char c115;
  char c116;
  char c117;
  char c118;
  char c119;
  char c120;
  char c121;
  char c122;
} packed0;
