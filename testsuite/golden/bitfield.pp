bitfield 5:4-5:16
bitfield 7:4-7:14
