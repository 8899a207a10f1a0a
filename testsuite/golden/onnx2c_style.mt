function node_conv testsuite/golden/onnx2c_style.c:18-40
  MT1 RB 20-39 for( uint32_t b=0; b<1; b++ ) [trip 1]
    MT1.1 RB 21-38 for( uint32_t m=0; m<4; m++) [trip 4]
      MT1.1.1 RB 22-37 for( int32_t o0=0, i0=-1; o0<8; o0++, i0+=1) [trip 8]
        MT1.1.1.1 RB 23-36 for( int32_t o1=0, i1=-1; o1<8; o1++, i1+=1) [trip 8]
          MT1.1.1.1.1 BB 24
          MT1.1.1.1.2 RB 25-35 for( int32_t c=0; c<4; c++ ) [trip 4]
            MT1.1.1.1.2.1 RB 26-34 for( uint32_t k0=0; k0<3; k0++ ) [trip 3]
              MT1.1.1.1.2.1.1 RB 27-33 for( uint32_t k1=0; k1<3; k1++ ) [trip 3]
                MT1.1.1.1.2.1.1.1 BB 28-32
function node_relu testsuite/golden/onnx2c_style.c:42-49
  MT1 BB 44-46
  MT2 RB 47-48 for( i=0; i<256; i++ ) [trip 256]
    MT2.1 BB 48
function entry testsuite/golden/onnx2c_style.c:51-54
  MT1 SB 52 call node_conv
  MT2 SB 53 call node_relu
