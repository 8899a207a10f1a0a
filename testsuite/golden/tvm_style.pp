directive 3:1-3:15
directive 5:1-5:6
directive 6:1-6:18
inactive 7:1-7:13
directive 8:1-8:6
attribute 9:20-9:60
macro 11:1-11:7 -> ""
macro 28:1-28:7 -> ""
directive 33:1-33:18
inactive 34:1-34:2
directive 35:1-35:6
