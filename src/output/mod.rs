pub mod recording;
pub use recording::{Column, Recording};
