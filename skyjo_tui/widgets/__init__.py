"""The client's widgets: the cards, boards, piles, lists, forms and footer its screens draw."""
