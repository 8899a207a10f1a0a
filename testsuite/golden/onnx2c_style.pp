directive 5:1-5:30
inactive 6:1-6:20
directive 7:1-7:5
directive 9:1-9:6
macro 18:1-18:11 -> "static inline"
macro 42:1-42:11 -> "static inline"
