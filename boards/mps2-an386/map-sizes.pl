# Sums the .text/.rodata input sections a GNU ld map kept, by origin (core,
# board, archive, libgcc). Merged string sections count at their size before
# merging, so the sums exceed the output section by about a kilobyte.
#   perl boards/mps2-an386/map-sizes.pl build/baremetal/holo-board.map
my ($pending, %s, $on);
while (<>) {
  $on = 1 if /^Linker script and memory map/; next unless $on;
  last if /^OUTPUT\(/;
  if (/^ (\.(?:text|rodata)\S*)\s*$/) { $pending = 1; next }
  if (($pending && /^\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)/) || /^ \.(?:text|rodata)\S*\s+0x[0-9a-f]+\s+0x([0-9a-f]+)\s+(\S+)/) {
    my ($sz, $f) = (hex $1, $2);
    my $k = $f =~ m{obj/(runtime|kernels-wasm-simd|generation)/} ? "core" : $f =~ m{boards/} ? "board" : $f =~ /archive\.o/ ? "archive" : $f =~ /libgcc/ ? "libgcc" : "other:$f";
    $s{$k} += $sz;
  }
  $pending = 0;
}
printf "%s %d\n", $_, $s{$_} for sort keys %s;
