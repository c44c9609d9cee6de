//! multibody
