//! block
