//! Port lists shared between the blocks whose lists are equal: a joint's inputs and outputs
//! (with the hidden ports binding adds) are the same for every joint of one configuration, and a
//! 20,000-joint URDF chain kept 20,000 copies (about 600 bytes and five allocations a joint).
//!
//! A block makes its list as a vector ([`PortList::Own`], pushed to while it is built and bound),
//! then hands it to [`share`], which replaces it with a shared copy of an equal list made by
//! another block that still lives ([`PortList::Shared`]). The registry of shared lists holds weak
//! references only: a list is freed with the last block that uses it, and the dead entries are
//! dropped when the registry is full; at most [`MAX_SHARED`] live lists are registered, so a
//! program that makes many different lists keeps its own vectors past that.

use crate::block::PortDecl;
use std::ops::Deref;
use std::sync::{Arc, Mutex, Weak};

/// A block's port list: its own while it is made, then a copy shared with equal lists.
#[derive(Debug)]
pub(super) enum PortList {
    /// The block's own list (while it is built and bound, or when none could be shared).
    Own(Vec<PortDecl>),
    /// A list shared with the other live blocks whose lists are equal.
    Shared(Arc<[PortDecl]>),
}

impl PortList {
    /// The list to push to: a shared list is copied first, so the other blocks' is unchanged.
    pub(super) fn to_mut(&mut self) -> &mut Vec<PortDecl> {
        if let PortList::Shared(shared) = self {
            *self = PortList::Own(shared.to_vec());
        }
        match self {
            PortList::Own(own) => own,
            PortList::Shared(_) => unreachable!("made Own just above"),
        }
    }
}

impl Deref for PortList {
    type Target = [PortDecl];
    fn deref(&self) -> &[PortDecl] {
        match self {
            PortList::Own(own) => own,
            PortList::Shared(shared) => shared,
        }
    }
}

impl From<Vec<PortDecl>> for PortList {
    fn from(own: Vec<PortDecl>) -> Self {
        PortList::Own(own)
    }
}

/// The most live lists registered: each is a few hundred bytes.
const MAX_SHARED: usize = 256;

/// The lists shared so far, as weak references (a list lives as long as a block uses it).
static SHARED: Mutex<Vec<Weak<[PortDecl]>>> = Mutex::new(Vec::new());

/// Replaces `list` by the shared copy of an equal list, registering it first if there is none
/// (up to [`MAX_SHARED`] live lists; past that, or if another thread panicked while holding the
/// registry, `list` is only shrunk to its length). A list already shared is left as it is.
pub(super) fn share(list: &mut PortList) {
    let PortList::Own(own) = list else {
        return;
    };
    let Ok(mut registry) = SHARED.lock() else {
        own.shrink_to_fit();
        return;
    };
    if let Some(same) = registry
        .iter()
        .filter_map(Weak::upgrade)
        .find(|k| k[..] == own[..])
    {
        *list = PortList::Shared(same);
        return;
    }
    if registry.len() >= MAX_SHARED {
        registry.retain(|k| k.strong_count() > 0);
    }
    if registry.len() < MAX_SHARED {
        let shared: Arc<[PortDecl]> = std::mem::take(own).into();
        registry.push(Arc::downgrade(&shared));
        *list = PortList::Shared(shared);
    } else {
        own.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::Shape;

    /// Two equal lists end as one copy; a different list is kept apart; a shared list pushed to
    /// again is copied first, so the other blocks' list is unchanged; a list no block uses any
    /// more is freed (only a weak reference stays registered).
    #[test]
    fn equal_lists_share_one_copy() {
        let list = || vec![PortDecl::signal("share_test_q", Shape::SCALAR)];
        let (mut a, mut b) = (PortList::from(list()), PortList::from(list()));
        let mut c = PortList::from(vec![PortDecl::signal("share_test_w", Shape::SCALAR)]);
        share(&mut a);
        share(&mut b);
        share(&mut c);
        assert!(
            matches!((&a, &b), (PortList::Shared(x), PortList::Shared(y)) if Arc::ptr_eq(x, y))
        );
        let (PortList::Shared(shared_a), PortList::Shared(shared_c)) = (&a, &c) else {
            panic!("a and c are shared");
        };
        assert!(
            !Arc::ptr_eq(shared_a, shared_c),
            "a different list is kept apart"
        );
        let weak_c = Arc::downgrade(shared_c);
        a.to_mut()
            .push(PortDecl::signal("share_test_w", Shape::SCALAR));
        assert_eq!((a.len(), b.len()), (2, 1));
        drop(c);
        assert!(weak_c.upgrade().is_none(), "a list no block uses is freed");
    }
}
